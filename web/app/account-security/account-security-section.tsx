import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { newPasswordSchema } from '@cronbeam/shared/auth/auth-schemas';
import type { RememberedDeviceView } from '@cronbeam/shared/auth/mfa-schemas';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { ERROR_TEXT, cleanAuthMessage } from '../api/error-messages';
import { FormAlert } from '../auth/auth-layout';
import { readClaims } from '../session/id-token';
import { useSession } from '../session/session-store';
import { formatUtc } from '../ui/format';
import { notify } from '../ui/toasts';
import { accountSecurityApi } from './account-security-api';
import { TwoFactorPanel } from './two-factor-panel';
import '../auth/sign-in-challenge.css';
import './account-security.css';

/** Runs a form's call with busy and error state; the error text is cleaned like the sign-in screens'. */
function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (task: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (failure) {
      setError(cleanAuthMessage(errorMessage(failure)));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

function DisplayNameForm() {
  const idToken = useSession((s) => s.idToken);
  const current = readClaims(idToken)?.name ?? '';
  const [name, setName] = useState(current);
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await accountSecurityApi.updateName(name.trim());
      // The display name is read from the ID token: a refresh brings one with the new name.
      useSession.getState().signIn(await accountSecurityApi.refresh());
      notify.success('Display name updated');
    });
  };
  return (
    <form className="security-block form" onSubmit={submit} noValidate aria-labelledby="display-name-title">
      <h3 id="display-name-title">Display name</h3>
      {error && <FormAlert kind="error">{error}</FormAlert>}
      <div className="field">
        <label htmlFor="display-name">Full Name</label>
        <input id="display-name" type="text" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
      </div>
      <button type="submit" className="button button-secondary" disabled={busy || !name.trim() || name.trim() === current}>
        {busy ? 'Saving...' : 'Save Name'}
      </button>
    </form>
  );
}

function ChangePasswordForm() {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, run } = useAction();
  const mismatch = confirm.length > 0 && confirm !== newPassword;
  const passwordProblem = newPassword.length > 0 ? newPasswordSchema.safeParse(newPassword).error?.issues[0]?.message : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      try {
        await accountSecurityApi.changePassword({ old_password: oldPassword, new_password: newPassword });
      } catch (failure) {
        if (failure instanceof ApiRequestError && failure.status === 400 && failure.detail === AUTH_MESSAGES.incorrectCredentials) {
          throw new Error(ERROR_TEXT.currentPasswordIncorrect);
        }
        throw failure;
      }
      setOldPassword('');
      setNewPassword('');
      setConfirm('');
      notify.success('Password changed');
    });
  };
  return (
    <form className="security-block form" onSubmit={submit} noValidate aria-labelledby="change-password-title">
      <h3 id="change-password-title">Change password</h3>
      {error && <FormAlert kind="error">{error}</FormAlert>}
      <div className="field">
        <label htmlFor="current-password">Current password</label>
        <input id="current-password" type="password" autoComplete="current-password" value={oldPassword} onChange={(e) => setOldPassword(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="new-password">New password</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          aria-invalid={Boolean(passwordProblem)}
        />
        {passwordProblem && <p className="field-error">{passwordProblem}</p>}
      </div>
      <div className="field">
        <label htmlFor="confirm-password">Confirm new password</label>
        <input id="confirm-password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} aria-invalid={mismatch} />
        {mismatch && <p className="field-error">The passwords do not match</p>}
      </div>
      <button type="submit" className="button button-secondary" disabled={busy || !oldPassword || !newPassword || Boolean(passwordProblem) || confirm !== newPassword}>
        {busy ? 'Changing...' : 'Change Password'}
      </button>
    </form>
  );
}

function RememberedDevices({ reloadKey }: { reloadKey: number }) {
  const [devices, setDevices] = useState<RememberedDeviceView[] | null>(null);
  const { busy, error, run } = useAction();
  const load = useCallback(() => run(async () => setDevices(await accountSecurityApi.devices())), []);
  useEffect(() => {
    void load();
  }, [load, reloadKey]);
  return (
    <div className="security-block" aria-labelledby="devices-title">
      <h3 id="devices-title">Remembered devices</h3>
      <p className="muted">Devices you chose to remember skip the two-factor code for 30 days. Forget any you do not recognise.</p>
      {error && <FormAlert kind="error">{error}</FormAlert>}
      {devices && devices.length === 0 && <p className="muted">No remembered devices.</p>}
      {devices && devices.length > 0 && (
        <ul className="device-list">
          {devices.map((device) => (
            <li key={device.device_id} className="device-row">
              <div>
                <strong>{device.name}</strong>
                <div className="muted small">
                  Remembered {formatUtc(device.created_at)}
                  {device.last_used_at ? ` · last used ${formatUtc(device.last_used_at)}` : ''}
                </div>
              </div>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={busy}
                aria-label={`Forget ${device.name}`}
                onClick={() =>
                  void run(async () => {
                    await accountSecurityApi.forgetDevice(device.device_id);
                    setDevices((list) => list?.filter((d) => d.device_id !== device.device_id) ?? null);
                    notify.success('Device forgotten');
                  })
                }
              >
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SignOutEverywhere() {
  const navigate = useNavigate();
  const { busy, error, run } = useAction();
  const email = readClaims(useSession((s) => s.idToken))?.email;
  return (
    <div className="security-block" aria-labelledby="sign-out-title">
      <h3 id="sign-out-title">Sign out everywhere</h3>
      <p className="muted">Ends every session of your account on every device, this one included.</p>
      {error && <FormAlert kind="error">{error}</FormAlert>}
      <button
        type="button"
        className="button button-danger"
        disabled={busy}
        onClick={() =>
          void run(async () => {
            await accountSecurityApi.globalSignOut();
            // Remembered devices stay remembered (as with the managed service); only sessions end.
            useSession.getState().signOut();
            navigate(`/login${email ? `?email=${encodeURIComponent(email)}` : ''}`, { replace: true });
          })
        }
      >
        {busy ? 'Signing Out...' : 'Sign Out Everywhere'}
      </button>
    </div>
  );
}

/** Account Security on the profile: two-factor, recovery codes, password, remembered devices, sessions, display name. */
export function AccountSecuritySection() {
  // Turning two-factor off forgets every remembered device: the list reloads.
  const [reloadKey, setReloadKey] = useState(0);
  return (
    <section className="panel panel-padded profile-section account-security" aria-labelledby="account-security-title">
      <h2 id="account-security-title">Account Security</h2>
      <TwoFactorPanel onChanged={() => setReloadKey((k) => k + 1)} />
      <RememberedDevices reloadKey={reloadKey} />
      <ChangePasswordForm />
      <DisplayNameForm />
      <SignOutEverywhere />
    </section>
  );
}
