import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSessionExpiryCheck } from '../session/use-session-expiry';
import { BillingLayout } from './billing-layout';

/** Seconds before /success moves on to the dashboard. */
export const SUCCESS_REDIRECT_SECONDS = 5;

/** /success: where checkout returns after payment; counts down to the dashboard. */
export default function SuccessPage() {
  const valid = useSessionExpiryCheck();
  const navigate = useNavigate();
  const [left, setLeft] = useState(SUCCESS_REDIRECT_SECONDS);

  useEffect(() => {
    if (!valid) return;
    if (left <= 0) {
      navigate('/dashboard', { replace: true });
      return;
    }
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, valid, navigate]);

  if (!valid) return null;
  return (
    <BillingLayout>
      <section className="result-card" aria-labelledby="result-title">
        <div className="result-icon result-success" aria-hidden="true">
          ✓
        </div>
        <h1 id="result-title">Subscription Successful!</h1>
        <p>Thank you. Your new plan is active as soon as the payment is confirmed.</p>
        <p className="muted" role="status">
          Redirecting to your dashboard in {left} second{left === 1 ? '' : 's'}...
        </p>
        <button type="button" className="button button-primary" onClick={() => navigate('/dashboard', { replace: true })}>
          Go to Dashboard
        </button>
      </section>
    </BillingLayout>
  );
}
