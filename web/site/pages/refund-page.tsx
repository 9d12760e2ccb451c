import { LegalPage } from '../layout/legal-page';
import { SITE_FACTS } from '../site-facts';
import { SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

function RefundPage() {
  return (
    <LegalPage title="Refund Policy">
      <h2>When you get your money back</h2>
      <p>
        You can ask for a full refund of a new paid subscription or upgrade within {SITE_FACTS.refundWindowHours} hours of the payment, as long as no
        executions have run on the paid plan since then.
      </p>
      <h2>How to ask</h2>
      <p>
        Send a message through the <a href="/contact">contact page</a> with the email address of your account and the date of the payment. We answer
        refund requests within {SITE_FACTS.refundAnswerBusinessDays} business days. Approved refunds go back to the card that paid; your bank may
        take a few more days to show them.
      </p>
      <h2>What is not refunded</h2>
      <ul>
        <li>Payments older than {SITE_FACTS.refundWindowHours} hours, or periods in which executions have run.</li>
        <li>The rest of a period after you cancel: a cancelled plan stays active until the end of the period already paid.</li>
      </ul>
      <h2>Cancelling</h2>
      <p>
        You can cancel a paid plan at any time from your profile; it will not renew. The Free plan costs nothing and needs no card. See also our{' '}
        <a href="/terms">Terms of Service</a>.
      </p>
    </LegalPage>
  );
}

const page: SitePage = {
  meta: {
    path: '/refund',
    title: `Refund Policy | ${SITE_NAME}`,
    description: `Full refund within ${SITE_FACTS.refundWindowHours} hours of a payment when no executions have run; requests answered in ${SITE_FACTS.refundAnswerBusinessDays} business days.`,
  },
  Page: RefundPage,
};
export default page;
