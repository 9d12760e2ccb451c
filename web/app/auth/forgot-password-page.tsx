import { newPasswordSchema, VERIFICATION_CODE_LENGTH } from '@cronbeam/shared/auth/auth-schemas';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authApi } from '../api/auth-api';
import { errorMessage } from '../api/api-error';
import { cleanAuthMessage } from '../api/error-messages';
import { AuthLayout, FormAlert } from './auth-layout';

/** After the new password is set, /login follows after 2 s (as after verifying an email). */
export const RESET_REDIRECT_MS = 2000;

type Message = { kind: 'error' | 'success'; text: string } | null;

/**
 * /forgot-password: the email first (a code is mailed), then the code and a
 * new password under the shared password rules, then back to sign-in.
 */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [step, setStep] = useState<'email' | 'code' | 'done'>('email');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const passwordIssue = password ? (newPasswordSchema.safeParse(password).error?.issues[0]?.message ?? null) : null;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setMessage(null);
    try {
      await work();
    } catch (failure) {
      setMessage({ kind: 'error', text: cleanAuthMessage(errorMessage(failure)) });
    } finally {
      setBusy(false);
    }
  };

  const requestCode = (event?: FormEvent) => {
    event?.preventDefault();
    return run(async () => {
      await authApi.forgotPassword(email.trim());
      setStep('code');
      setMessage({ kind: 'success', text: `If an account exists for ${email.trim()}, a reset code was sent to it.` });
    });
  };

  const reset = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      await authApi.resetPassword(email.trim(), code.trim(), password);
      setStep('done');
      setMessage({ kind: 'success', text: 'Password has been reset. Redirecting to sign in...' });
      timer.current = setTimeout(() => navigate(`/login?email=${encodeURIComponent(email.trim())}`), RESET_REDIRECT_MS);
    });
  };

  return (
    <AuthLayout title="Reset your password" subtitle={step === 'email' ? 'We will email you a code to choose a new password.' : <>Enter the code sent to <strong>{email.trim()}</strong>.</>}>
      {message && <FormAlert kind={message.kind}>{message.text}</FormAlert>}
      {step === 'email' ? (
        <form className="form" onSubmit={requestCode} noValidate>
          <div className="field">
            <label htmlFor="forgot-email">Email</label>
            <input id="forgot-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </div>
          <button type="submit" className="button button-primary button-block" disabled={busy || !email.trim()}>
            {busy ? 'Sending...' : 'Send reset code'}
          </button>
        </form>
      ) : (
        <form className="form" onSubmit={reset} noValidate>
          <div className="field">
            <label htmlFor="reset-code">Reset code</label>
            <input
              id="reset-code"
              className="code-input"
              autoComplete="one-time-code"
              maxLength={VERIFICATION_CODE_LENGTH}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              disabled={step === 'done'}
            />
          </div>
          <div className="field">
            <label htmlFor="reset-password">New password</label>
            <input
              id="reset-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={Boolean(passwordIssue)}
              disabled={step === 'done'}
            />
            {passwordIssue && <span className="field-error">{passwordIssue}</span>}
          </div>
          <button type="submit" className="button button-primary button-block" disabled={busy || step === 'done' || !code.trim() || !password || Boolean(passwordIssue)}>
            {busy ? 'Saving...' : 'Set new password'}
          </button>
          <button type="button" className="button button-secondary button-block" onClick={() => requestCode()} disabled={busy || step === 'done'}>
            Send a new code
          </button>
        </form>
      )}
      <p className="auth-footer">
        Remembered it? <Link to="/login">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
