import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AUTH_FIELD_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { authApi } from '../api/auth-api';
import { errorMessage } from '../api/api-error';
import { ERROR_TEXT, cleanAuthMessage } from '../api/error-messages';
import { sessionStorageAdapter } from '../platform/platform';
import { AuthLayout, FormAlert } from './auth-layout';
import { SocialButton } from './social-button';

/** How long the 'account created' message shows before /verify (1 s: long enough to read, short enough not to wait). */
export const SIGNUP_REDIRECT_MS = 1000;

/** /signup: full name, email, password; then on to /verify?email=. */
export function SignupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState(params.get('error'));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const address = email.trim();
    try {
      await authApi.signup(name.trim(), address, password);
      sessionStorageAdapter().set('verificationEmail', address);
      setDone(true);
      timer.current = setTimeout(() => navigate(`/verify?email=${encodeURIComponent(address)}`), SIGNUP_REDIRECT_MS);
    } catch (failure) {
      setError(cleanAuthMessage(errorMessage(failure)) || ERROR_TEXT.signupFailed);
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Create your account" subtitle="Free plan: 2 jobs and 100 executions a month, no card needed.">
      {error && <FormAlert kind="error">{error}</FormAlert>}
      {done && <FormAlert kind="success">Account created. Check your email for the verification code.</FormAlert>}
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="signup-name">Full Name</label>
          <input id="signup-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} required />
        </div>
        <div className="field">
          <label htmlFor="signup-email">Email</label>
          <input id="signup-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </div>
        <div className="field">
          <label htmlFor="signup-password">Password</label>
          <input
            id="signup-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby="signup-password-rule"
            required
          />
          <span id="signup-password-rule" className="field-hint">
            {AUTH_FIELD_MESSAGES.passwordRule}
          </span>
        </div>
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={busy || done || !name.trim() || !email.trim() || !password}
        >
          {busy ? 'Creating Account...' : 'Create Account'}
        </button>
      </form>
      <div className="divider">
        <span>or</span>
      </div>
      <SocialButton intent="signup" />
      <p className="auth-footer">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </AuthLayout>
  );
}
