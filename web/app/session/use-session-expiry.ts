import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { ERROR_TEXT } from '../api/error-messages';
import { isIdTokenExpired } from './id-token';
import { useSession } from './session-store';

/** Spec: the ID token is checked when the dashboard starts and every 60 s. */
export const SESSION_CHECK_INTERVAL_MS = 60_000;

/** The URL of the login page carrying a message. */
export function loginUrl(error?: string, email?: string): string {
  const query = new URLSearchParams();
  if (email) query.set('email', email);
  if (error) query.set('error', error);
  const text = query.toString();
  return text ? `/login?${text}` : '/login';
}

/**
 * Ends the session once the ID token is missing or expired: clears every
 * session value and sends the user to /login with 'Session expired...'.
 * Returns whether the session is valid right now, so the caller can avoid
 * rendering protected content for an expired one.
 */
export function useSessionExpiryCheck(): boolean {
  const navigate = useNavigate();
  const idToken = useSession((s) => s.idToken);
  const valid = !isIdTokenExpired(idToken);

  // Checks at start and on the timer only: a session cleared on purpose (logout,
  // a 401) navigates by itself and must not be reported as expired.
  useEffect(() => {
    const check = () => {
      if (!isIdTokenExpired(useSession.getState().idToken)) return;
      useSession.getState().clear();
      navigate(loginUrl(ERROR_TEXT.sessionCheckExpired), { replace: true });
    };
    check();
    const interval = setInterval(check, SESSION_CHECK_INTERVAL_MS);
    return () => clearInterval(interval);
  }, [navigate]);

  return valid;
}
