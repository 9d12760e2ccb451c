import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { LegalPage } from '../layout/legal-page';
import { SITE_FACTS } from '../site-facts';
import { SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

function TermsPage() {
  return (
    <LegalPage title="Terms of Service">
      <p>
        These terms govern your use of {SITE_NAME}, a hosted service that sends HTTP requests on cron schedules, and its website, dashboard,
        desktop app and public API. By creating an account you accept them.
      </p>
      <h2>1. Who may use the service</h2>
      <p>
        You must be at least {SITE_FACTS.minimumAge} years old to create an account. If you use {SITE_NAME} for an organisation, you confirm that
        you may accept these terms for it.
      </p>
      <h2>2. Your account</h2>
      <p>
        Keep your password and API keys secret; everything done with them counts as done by you. API keys are shown once when created; delete a key
        you no longer trust from your profile. You may delete your account at any time from your profile, which removes your jobs and their logs.
      </p>
      <h2>3. Acceptable use</h2>
      <ul>
        <li>Schedule requests only to endpoints you own or are allowed to call.</li>
        <li>Do not use the service to attack, overload or probe other systems, or to send spam.</li>
        <li>
          Requests to private, loopback and link-local addresses are refused; do not try to get around this or the limits of your plan.
        </li>
      </ul>
      <p>We may pause jobs or suspend accounts that break these rules.</p>
      <h2>4. Plans, limits and payment</h2>
      <p>
        The Free plan allows {PLAN_LIMITS.free.maxJobs} jobs and {PLAN_LIMITS.free.executionsPerMonth} executions a month; Basic{' '}
        {PLAN_LIMITS.basic.maxJobs} jobs and {PLAN_LIMITS.basic.executionsPerMonth.toLocaleString('en-US')}; Pro {PLAN_LIMITS.pro.maxJobs} jobs and{' '}
        {PLAN_LIMITS.pro.executionsPerMonth.toLocaleString('en-US')}. When an account reaches its monthly execution limit, runs are skipped until the
        quota resets on the first day of the next month (UTC). Paid plans are billed monthly or annually in advance through our card payment provider. An upgrade applies at once; a
        downgrade at the next cycle. You can cancel at any time; a cancelled plan stays active until the end of the period you paid for. Refunds
        follow our <a href="/refund">Refund Policy</a>.
      </p>
      <h2>5. Availability</h2>
      <p>
        We run the scheduler so that jobs start on time, retry failed runs up to 3 times and keep their logs, but we do not guarantee that every run
        happens at its exact second or that the service is never unavailable. Do not rely on {SITE_NAME} as the only safeguard of anything critical.
      </p>
      <h2>6. Liability</h2>
      <p>
        The service is provided as is. To the extent the law allows, our liability for any claim is limited to the amount you paid us in the 12
        months before it.
      </p>
      <h2>7. Changes</h2>
      <p>
        We may change these terms; we will email account holders about material changes before they apply. Questions: see our{' '}
        <a href="/contact">contact page</a>. How we handle personal data is described in our <a href="/privacy">Privacy Policy</a>.
      </p>
    </LegalPage>
  );
}

const page: SitePage = {
  meta: {
    path: '/terms',
    title: `Terms of Service | ${SITE_NAME}`,
    description: `The terms for using ${SITE_NAME}: who may sign up (age ${SITE_FACTS.minimumAge} and up), acceptable use, plan limits, payment and liability.`,
  },
  Page: TermsPage,
};
export default page;
