import { LegalPage } from '../layout/legal-page';
import { SITE_FACTS } from '../site-facts';
import { SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy">
      <p>This policy explains which personal data {SITE_NAME} keeps, why, and what you can do about it.</p>
      <h2>What we collect</h2>
      <ul>
        <li>Account data: your email address, your name if you give one, and a hash of your password (never the password itself).</li>
        <li>Jobs you create: their names, URLs, methods, headers, bodies and schedules.</li>
        <li>Run logs: when each run happened, the status code, the duration and the start of the response your endpoint returned.</li>
        <li>API keys: only a hash of each key, its name and when it was created.</li>
        <li>Billing: your plan and subscription state. Card details go directly to our card payment provider and never reach our servers.</li>
        <li>Contact messages: what you send through the contact form, with your name and email address.</li>
      </ul>
      <h2>Why we use it</h2>
      <p>
        To run your jobs, show you their logs, email you when a job fails (if you asked for it), send account emails such as verification codes,
        bill paid plans and answer your questions. We do not sell personal data and do not use it for advertising.
      </p>
      <h2>Cookies</h2>
      <p>
        The dashboard keeps your session in cookies (an access token and an identity token) and remembers the email address waiting for
        verification. The public pages set no tracking cookies.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Your data stays while your account exists. Deleting a job deletes its logs; deleting your account deletes your jobs, logs and keys. Billing
        records are kept as long as tax law requires.
      </p>
      <h2>Children</h2>
      <p>
        {SITE_NAME} is not meant for children under {SITE_FACTS.minimumAge}. If you believe a child under {SITE_FACTS.minimumAge} has created an
        account, tell us and we will delete it.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see and change your data in the dashboard, export your jobs through the API, and delete your account from your profile. For anything
        else, such as a copy of your data, write to us through the <a href="/contact">contact page</a>; we answer within{' '}
        {SITE_FACTS.contactResponseHours} hours.
      </p>
    </LegalPage>
  );
}

const page: SitePage = {
  meta: {
    path: '/privacy',
    title: `Privacy Policy | ${SITE_NAME}`,
    description: `Which personal data ${SITE_NAME} keeps (account, jobs, run logs, hashed keys), why, for how long, and how to delete it.`,
  },
  Page: PrivacyPage,
};
export default page;
