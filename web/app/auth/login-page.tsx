import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import { isChallenge, type ChallengeResponse } from '@cronbeam/shared/auth/mfa-schemas';
import { takePendingInvitationPath } from '../accounts/pending-invitation';
import { authApi } from '../api/auth-api';
import { errorMessage } from '../api/api-error';
import { cleanAuthMessage } from '../api/error-messages';
import { useSession } from '../session/session-store';
import { AuthLayout, FormAlert } from './auth-layout';
import { CHALLENGE_TITLES, SignInChallenge } from './sign-in-challenge';
import { signInWithPassword } from './sign-in-api';
import { SocialButton } from './social-button';
import type { VerifyPageState } from './verify-page';

/** /login: email and password, a social button, `?email=` prefill and `?error=` message. */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSession((s) => s.signIn);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(params.get('error'));
  const [challenge, setChallenge] = useState<ChallengeResponse | null>(null);
  const [resending, setResending] = useState(false);
  const address = email.trim();
  // An account whose address was never verified: the way on is /verify, with a fresh code if the old one is lost.
  const unconfirmed = error === AUTH_MESSAGES.userNotConfirmed && address !== '';
  const verifyUrl = `/verify?email=${encodeURIComponent(address)}`;

  const resendCode = async () => {
    setResending(true);
    try {
      await authApi.resendCode(address);
      navigate(verifyUrl, { state: { codeSentTo: address } satisfies VerifyPageState });
    } catch (failure) {
      setError(cleanAuthMessage(errorMessage(failure)));
      setResending(false);
    }
  };

  const finish = (tokens: TokenResponse) => {
    signIn(tokens);
    // /login?redirect=pricing (a paid plan chosen while signed out) returns to the pricing page;
    // /login?redirect=invitation returns to the invitation opened while signed out (its token waited in this tab).
    const redirect = params.get('redirect');
    navigate(redirect === 'pricing' ? '/pricing' : ((redirect === 'invitation' && takePendingInvitationPath()) || '/dashboard'), { replace: true });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await signInWithPassword(email.trim(), password);
      if (isChallenge(response)) {
        setChallenge(response);
        setBusy(false);
      } else finish(response);
    } catch (failure) {
      setError(cleanAuthMessage(errorMessage(failure)));
      setBusy(false);
    }
  };

  if (challenge) {
    return (
      <AuthLayout title={CHALLENGE_TITLES[challenge.challenge]} subtitle={email.trim()}>
        <SignInChallenge
          email={email.trim()}
          challenge={challenge}
          onSignedIn={finish}
          onNextChallenge={setChallenge}
          onRestart={(message) => {
            setChallenge(null);
            setPassword('');
            setError(message);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Welcome back" subtitle="Sign in to manage your scheduled jobs.">
      {error && (
        <FormAlert kind="error">
          {error}
          {unconfirmed && (
            <span className="alert-actions">
              Verify {address} with the code we mailed to it. <Link to={verifyUrl}>Enter the verification code</Link>
              <button type="button" className="button button-secondary button-small" onClick={() => void resendCode()} disabled={resending}>
                {resending ? 'Sending...' : 'Resend verification code'}
              </button>
            </span>
          )}
        </FormAlert>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="login-email">Email</label>
          <input id="login-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          {/* After the field, so the keyboard goes from Email straight to Password. */}
          <Link className="link-muted field-aside" to={email.trim() ? `/forgot-password?email=${encodeURIComponent(email.trim())}` : '/forgot-password'}>
            Forgot Password?
          </Link>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={busy || !email.trim() || !password}>
          {busy ? 'Signing In...' : 'Sign In'}
        </button>
      </form>
      <div className="divider">
        <span>or</span>
      </div>
      <SocialButton intent="login" />
      <p className="auth-footer">
        New to Cronbeam? <Link to="/signup">Create an account</Link>
      </p>
    </AuthLayout>
  );
}
