import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { authApi, devOutboxUrl } from '../api/auth-api';
import { errorMessage } from '../api/api-error';
import { cleanAuthMessage } from '../api/error-messages';
import { sessionStorageAdapter } from '../platform/platform';
import { AuthLayout, FormAlert } from './auth-layout';

/** Spec: after a successful verification, /login follows after 2 s. */
export const VERIFY_REDIRECT_MS = 2000;
export const VERIFICATION_CODE_LENGTH = 6;

/** What /login passes along when it has just sent a new code (its "Resend verification code"). */
export interface VerifyPageState {
  codeSentTo?: string;
}

/** The notice that a new code went out. */
export const codeSentText = (email: string) => `A new code was sent to ${email}.`;

/**
 * /verify: the code sent to the address from the query, the route or the
 * verificationEmail cookie. On a development server that keeps its mail in
 * the dev outbox, it says where the code is.
 */
export function VerifyPage() {
  const [params] = useSearchParams();
  const route = useParams();
  const navigate = useNavigate();
  const { state } = useLocation() as { state: VerifyPageState | null };
  const email = params.get('email') ?? route.email ?? sessionStorageAdapter().get('verificationEmail');
  const [code, setCode] = useState('');
  const [verifying, setVerifying] = useState(false);
  const [sending, setSending] = useState(false);
  const [verified, setVerified] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(() =>
    email && state?.codeSentTo === email ? { kind: 'success', text: codeSentText(email) } : null,
  );
  const [inDevOutbox, setInDevOutbox] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (!email) return;
    let current = true;
    void authApi.mailInDevOutbox(email).then((found) => current && setInDevOutbox(found));
    return () => {
      current = false;
    };
  }, [email]);

  if (!email) return <Navigate to="/signup" replace />;

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setVerifying(true);
    setMessage(null);
    try {
      await authApi.verify(email, code.trim());
      sessionStorageAdapter().remove('verificationEmail');
      setVerified(true);
      setMessage({ kind: 'success', text: 'Email verified. Redirecting to sign in...' });
      timer.current = setTimeout(() => navigate(`/login?email=${encodeURIComponent(email)}`), VERIFY_REDIRECT_MS);
    } catch (failure) {
      setMessage({ kind: 'error', text: cleanAuthMessage(errorMessage(failure)) });
    } finally {
      setVerifying(false);
    }
  };

  const resend = async () => {
    setSending(true);
    setMessage(null);
    try {
      await authApi.resendCode(email);
      setMessage({ kind: 'success', text: codeSentText(email) });
      if (!inDevOutbox) setInDevOutbox(await authApi.mailInDevOutbox(email));
    } catch (failure) {
      setMessage({ kind: 'error', text: cleanAuthMessage(errorMessage(failure)) });
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthLayout
      title="Verify your email"
      subtitle={
        <>
          We sent a 6-character code to <strong>{email}</strong>.
        </>
      }
    >
      {message && <FormAlert kind={message.kind}>{message.text}</FormAlert>}
      {inDevOutbox && (
        <FormAlert kind="info">
          This development server does not send mail: the code is in the dev outbox at{' '}
          <a href={devOutboxUrl()} target="_blank" rel="noreferrer">
            {devOutboxUrl()}
          </a>
          .
        </FormAlert>
      )}
      <form className="form" onSubmit={verify} noValidate>
        <div className="field">
          <label htmlFor="verify-code">Verification code</label>
          <input
            id="verify-code"
            className="code-input"
            inputMode="text"
            autoComplete="one-time-code"
            maxLength={VERIFICATION_CODE_LENGTH}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary button-block" disabled={verifying || verified || !code.trim()}>
          {verifying ? 'Verifying...' : 'Verify Email'}
        </button>
      </form>
      <button type="button" className="button button-ghost button-block" onClick={resend} disabled={sending || verified}>
        {sending ? 'Sending...' : 'Resend verification code'}
      </button>
      <p className="auth-footer">
        Already verified? <Link to="/login">Sign in</Link>
      </p>
    </AuthLayout>
  );
}
