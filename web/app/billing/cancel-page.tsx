import { Link } from 'react-router-dom';
import { useSessionExpiryCheck } from '../session/use-session-expiry';
import { BillingLayout } from './billing-layout';

/** /cancel: where checkout returns when the customer backs out. */
export default function CancelPage() {
  const valid = useSessionExpiryCheck();
  if (!valid) return null;
  return (
    <BillingLayout>
      <section className="result-card" aria-labelledby="result-title">
        <div className="result-icon result-cancel" aria-hidden="true">
          ✕
        </div>
        <h1 id="result-title">Subscription Cancelled...</h1>
        <p>No charges have been made.</p>
        <div className="button-row result-actions">
          <Link className="button button-primary" to="/pricing">
            Try Again
          </Link>
          <Link className="button button-secondary" to="/dashboard">
            Back to Dashboard
          </Link>
        </div>
      </section>
    </BillingLayout>
  );
}
