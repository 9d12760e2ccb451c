import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatBillingDate } from '@cronbeam/shared/billing/billing-types';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { billingApi } from '../billing/billing-api';
import { Modal } from '../ui/modal';
import { notify } from '../ui/toasts';
import { afterCancel, afterCancelRefused, canCancel, subscriptionViewOf, type SubscriptionView } from './subscription-state';

const STATUS_LABEL: Record<string, string> = {
  none: 'None',
  free: 'Free',
  active: 'Active',
  past_due: 'Payment failed — retrying',
  cancelled: 'Cancelled',
};

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Subscription: plan, status, renewal or end date, a scheduled downgrade, and cancellation. */
export function SubscriptionSection() {
  const [view, setView] = useState<SubscriptionView | null>(null);
  const [scheduledPlan, setScheduledPlan] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    billingApi.profileStats().then(
      (stats) => {
        setView(subscriptionViewOf(stats));
        setScheduledPlan(stats.scheduled_plan);
      },
      (error: unknown) => {
        if (error instanceof ApiRequestError && error.status === 401) return;
        setLoadError(`Failed to load profile data: ${errorMessage(error)}`);
      },
    );
  }, []);

  const cancel = async () => {
    if (!view) return;
    setBusy(true);
    try {
      const answer = await billingApi.cancelSubscription();
      const next = afterCancel(view, answer);
      setView(next);
      notify.success(next.cancellationScheduled ? 'Cancellation scheduled' : 'Subscription cancelled');
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.status !== 401) {
        const refused = afterCancelRefused(view, error instanceof ApiRequestError ? error.status : 0, errorMessage(error));
        setView(refused.view);
        notify.error(refused.message);
      }
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <section className="panel panel-padded profile-section" aria-labelledby="subscription-title">
      <h2 id="subscription-title">Subscription</h2>
      {loadError && (
        <div className="alert alert-error" role="alert">
          {loadError}
        </div>
      )}
      {!view && !loadError && <div className="spinner" role="status" aria-label="Loading subscription" />}
      {view && (
        <>
          <dl className="profile-fields">
            <div className="profile-field">
              <dt>Plan</dt>
              <dd>
                <span className="plan-badge" data-testid="profile-plan">
                  {capitalize(view.plan)}
                </span>
              </dd>
            </div>
            <div className="profile-field">
              <dt>Status</dt>
              <dd data-testid="profile-status">{STATUS_LABEL[view.status] ?? view.status}</dd>
            </div>
            {view.cancellationScheduled && (
              <div className="profile-field">
                <dt>Cancellation scheduled</dt>
                <dd data-testid="profile-access-until">{view.periodEnd ? `Access until ${formatBillingDate(view.periodEnd)}` : 'Yes'}</dd>
              </div>
            )}
            {!view.cancellationScheduled && view.plan !== 'free' && view.periodEnd && view.status !== 'cancelled' && (
              <div className="profile-field">
                <dt>{scheduledPlan ? 'Changes to ' + capitalize(scheduledPlan) + ' on' : 'Renews on'}</dt>
                <dd>{formatBillingDate(view.periodEnd)}</dd>
              </div>
            )}
          </dl>
          <div className="button-row">
            <Link className="button button-primary" to="/pricing">
              {view.plan === 'pro' ? 'Change Plan' : 'Upgrade Plan'}
            </Link>
            {canCancel(view) && (
              <button type="button" className="button button-danger-outline" onClick={() => setConfirming(true)}>
                Cancel Subscription
              </button>
            )}
          </div>
        </>
      )}
      {confirming && view && (
        <Modal
          title="Cancel Subscription"
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
                Keep Subscription
              </button>
              <button type="button" className="button button-danger" onClick={() => void cancel()} disabled={busy}>
                {busy ? 'Cancelling...' : 'Yes, Cancel'}
              </button>
            </>
          }
        >
          <p>
            Your {capitalize(view.plan)} plan stays active until {view.periodEnd ? formatBillingDate(view.periodEnd) : 'the end of the paid period'}; after that
            your account returns to the Free plan and you are not charged again.
          </p>
        </Modal>
      )}
    </section>
  );
}
