import type { InvitationPreview } from '@cronbeam/shared/accounts/account-rules';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../api/api-error';
import { accountsApi } from '../api/accounts-api';
import { AuthLayout, FormAlert } from '../auth/auth-layout';
import { tokenFromFragment } from '../ui/link-token';
import { useSession } from '../session/session-store';
import { switchAccount } from './accounts-store';
import { rememberInvitation } from './pending-invitation';

/**
 * Where an invitation's link lands: what the invitation is, then Accept, which
 * needs a session of the invited address (the server checks it). Nothing is
 * accepted without a click, so a mail scanner opening the link accepts nothing.
 */
export default function InvitationAcceptPage() {
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  const signedIn = useSession((s) => Boolean(s.accessToken));
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return;
    accountsApi.previewInvitation(token).then(setPreview, (failure: unknown) => setError(errorMessage(failure)));
  }, [token]);

  const accept = async () => {
    if (!token) return;
    setBusy(true);
    try {
      switchAccount(await accountsApi.acceptInvitation(token));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  const usable = preview && !preview.expired && !preview.used;
  return (
    <AuthLayout title="Join a team on Cronbeam" subtitle={preview ? `${preview.account_name} invited ${preview.email} as ${preview.role}.` : undefined}>
      {!token && <FormAlert kind="error">This link has no invitation token. Open the link from the mail as it was sent.</FormAlert>}
      {error && <FormAlert kind="error">{error}</FormAlert>}
      {preview && !usable && <FormAlert kind="error">This invitation has expired, was revoked or was already used. Ask for a new one.</FormAlert>}
      {usable && !signedIn && (
        <div className="form">
          <p className="muted">Sign in (or sign up) with {preview.email}, then open the link again.</p>
          <Link className="button button-primary button-block" to="/login?redirect=invitation" onClick={() => rememberInvitation(token!)}>
            Sign In to Accept
          </Link>
        </div>
      )}
      {usable && signedIn && (
        <div className="form">
          <button type="button" className="button button-primary button-block" disabled={busy} onClick={accept}>
            {busy ? 'Joining...' : `Join ${preview.account_name}`}
          </button>
        </div>
      )}
      <p className="auth-footer">
        <Link to="/dashboard">Back to the dashboard</Link>
      </p>
    </AuthLayout>
  );
}
