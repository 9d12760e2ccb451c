import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authApi } from '../api/auth-api';
import { errorMessage } from '../api/api-error';
import { cleanAuthMessage } from '../api/error-messages';
import { useSession } from '../session/session-store';
import { AuthLayout, FormAlert } from './auth-layout';
import { SocialButton } from './social-button';

/** /login: email and password, a social button, `?email=` prefill and `?error=` message. */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSession((s) => s.signIn);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(params.get('error'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signIn(await authApi.login(email.trim(), password));
      // /login?redirect=pricing (a paid plan chosen while signed out) returns to the pricing page.
      navigate(params.get('redirect') === 'pricing' ? '/pricing' : '/dashboard', { replace: true });
    } catch (failure) {
      setError(cleanAuthMessage(errorMessage(failure)));
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Welcome back" subtitle="Sign in to manage your scheduled jobs.">
      {error && <FormAlert kind="error">{error}</FormAlert>}
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="login-email">Email</label>
          <input id="login-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </div>
        <div className="field">
          <div className="field-label-row">
            <label htmlFor="login-password">Password</label>
            <a className="link-muted" href="#forgot-password" onClick={(e) => e.preventDefault()}>
              Forgot Password?
            </a>
          </div>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
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
