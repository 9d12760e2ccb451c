import { useState, type FormEvent } from 'react';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { newPasswordSchema, type TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import { isChallenge, type ChallengeResponse } from '@cronbeam/shared/auth/mfa-schemas';
import { errorMessage } from '../api/api-error';
import { cleanAuthMessage } from '../api/error-messages';
import { answerChallenge, thisDeviceName } from './sign-in-api';
import { FormAlert } from './auth-layout';
import { TotpQrCode } from './totp-qr-code';
import './sign-in-challenge.css';

export const CHALLENGE_TITLES: Record<ChallengeResponse['challenge'], string> = {
  SOFTWARE_TOKEN_MFA: 'Two-factor authentication',
  NEW_PASSWORD_REQUIRED: 'Choose a new password',
  MFA_SETUP: 'Set up two-factor authentication',
};

interface Props {
  email: string;
  challenge: ChallengeResponse;
  /** The sign-in finished with tokens. */
  onSignedIn(tokens: TokenResponse): void;
  /** Another challenge follows (a new password after the code). */
  onNextChallenge(challenge: ChallengeResponse): void;
  /** Back to the password step, with a message (an expired session). */
  onRestart(message: string | null): void;
}

/** The step after the password: a code from the authenticator app, a recovery code, or a new password. */
export function SignInChallenge({ email, challenge, onSignedIn, onNextChallenge, onRestart }: Props) {
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [remember, setRemember] = useState(false);
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const isNewPassword = challenge.challenge === 'NEW_PASSWORD_REQUIRED';
  const mismatch = isNewPassword && confirm.length > 0 && confirm !== newPassword;
  // The server's rules, checked here so the message shows before a round trip (and unscrubbed).
  const passwordProblem = isNewPassword && newPassword.length > 0 ? newPasswordSchema.safeParse(newPassword).error?.issues[0]?.message : undefined;
  const ready = isNewPassword ? newPassword.length > 0 && !passwordProblem && confirm === newPassword : code.trim().length > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await answerChallenge({
        email,
        challenge: challenge.challenge,
        session: challenge.session,
        ...(isNewPassword
          ? { new_password: newPassword }
          : useRecovery
            ? { recovery_code: code.trim() }
            : { code: code.trim(), remember_device: remember, ...(remember ? { device_name: thisDeviceName() } : {}) }),
      });
      if (isChallenge(response)) {
        setBusy(false);
        onNextChallenge(response);
      } else onSignedIn(response);
    } catch (failure) {
      const message = cleanAuthMessage(errorMessage(failure));
      if (message === AUTH_MESSAGES.challengeSessionExpired) {
        onRestart('The sign-in took too long. Please sign in again.');
        return;
      }
      setError(message);
      setBusy(false);
    }
  };

  return (
    <>
      {error && <FormAlert kind="error">{error}</FormAlert>}
      <form className="form" onSubmit={submit} noValidate>
        {challenge.challenge === 'MFA_SETUP' && challenge.otpauth_uri && challenge.secret && (
          <TotpQrCode uri={challenge.otpauth_uri} secret={challenge.secret} />
        )}
        {isNewPassword ? (
          <>
            <p className="muted">Your account needs a new password before you can continue.</p>
            <div className="field">
              <label htmlFor="challenge-new-password">New password</label>
              <input
                id="challenge-new-password"
                type="password"
                autoComplete="new-password"
                value={newPassword}
                onChange={(e) => setNewPassword(e.target.value)}
                aria-invalid={Boolean(passwordProblem)}
                required
              />
              {passwordProblem && <p className="field-error">{passwordProblem}</p>}
            </div>
            <div className="field">
              <label htmlFor="challenge-confirm-password">Confirm new password</label>
              <input
                id="challenge-confirm-password"
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                aria-invalid={mismatch}
                required
              />
              {mismatch && <p className="field-error">The passwords do not match</p>}
            </div>
          </>
        ) : (
          <>
            <p className="muted">
              {useRecovery
                ? 'Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once.'
                : 'Enter the 6-digit code from your authenticator app.'}
            </p>
            <div className="field">
              <label htmlFor="challenge-code">{useRecovery ? 'Recovery code' : 'Authentication code'}</label>
              <input
                id="challenge-code"
                type="text"
                inputMode={useRecovery ? 'text' : 'numeric'}
                autoComplete="one-time-code"
                maxLength={useRecovery ? 20 : 6}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoFocus
                required
              />
            </div>
            {!useRecovery && challenge.challenge === 'SOFTWARE_TOKEN_MFA' && (
              <label className="checkbox-row">
                <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember this device for 30 days
              </label>
            )}
          </>
        )}
        <button type="submit" className="button button-primary button-block" disabled={busy || !ready}>
          {busy ? 'Verifying...' : isNewPassword ? 'Set Password and Sign In' : 'Verify'}
        </button>
      </form>
      <p className="auth-footer">
        {challenge.challenge === 'SOFTWARE_TOKEN_MFA' && (
          <>
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setUseRecovery(!useRecovery);
                setCode('');
                setError(null);
              }}
            >
              {useRecovery ? 'Use your authenticator app' : 'Use a recovery code'}
            </button>
            {' · '}
          </>
        )}
        <button type="button" className="link-button" onClick={() => onRestart(null)}>
          Back to sign in
        </button>
      </p>
    </>
  );
}
