import { useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../api/api-error';
import { alertChannelsApi } from '../api/alert-channels-api';
import { AuthLayout, FormAlert } from '../auth/auth-layout';
import { tokenFromFragment } from '../ui/link-token';

/**
 * Where an alert channel's verification link lands. The recipient may have no
 * account, so the page needs no session; it confirms only on a click, so a
 * mail scanner that opens links does not confirm on the recipient's behalf.
 */
export default function AlertChannelVerifyPage() {
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);

  const confirm = async () => {
    if (!token) return;
    setBusy(true);
    try {
      const answer = await alertChannelsApi.verify(token);
      setOutcome({ kind: 'success', text: `${answer.message}. You can close this page.` });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Confirm alerts to this address" subtitle="A Cronbeam account asked to send its job and monitor alerts to your email address.">
      {!token && <FormAlert kind="error">This link has no verification token. Open the link from the mail as it was sent.</FormAlert>}
      {outcome && <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert>}
      {token && outcome?.kind !== 'success' && (
        <div className="form">
          <p className="muted">If you do not know the account or do not want its alerts, close this page: nothing is sent to you unless you confirm.</p>
          <button type="button" className="button button-primary button-block" disabled={busy} onClick={confirm}>
            {busy ? 'Confirming...' : 'Confirm alerts'}
          </button>
        </div>
      )}
      <p className="auth-footer">
        <Link to="/">Cronbeam</Link>
      </p>
    </AuthLayout>
  );
}
