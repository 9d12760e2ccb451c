import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import { isChallenge, type ChallengeResponse } from '@cronbeam/shared/auth/mfa-schemas';
import { errorMessage } from '../api/api-error';
import { ERROR_TEXT, cleanAuthMessage } from '../api/error-messages';
import { sessionStorageAdapter } from '../platform/platform';
import { useSession } from '../session/session-store';
import { AuthLayout } from './auth-layout';
import { socialSignIn } from './sign-in-api';
import { CHALLENGE_TITLES, SignInChallenge } from './sign-in-challenge';

/** Spec: an auth failure shows for 1 s before going back to login or signup. */
export const AUTH_ERROR_REDIRECT_MS = 1000;

/** /auth/callback: the provider sends the browser back with a code; exchange it for a session. */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSession((s) => s.signIn);
  const [failure, setFailure] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<ChallengeResponse | null>(null);
  const started = useRef(false);

  const finish = (tokens: TokenResponse) => {
    signIn(tokens);
    navigate('/dashboard', { replace: true });
  };

  useEffect(() => {
    // A code may be exchanged once only; StrictMode runs effects twice, so the
    // exchange and its redirect are started once and not cancelled on cleanup.
    if (started.current) return;
    started.current = true;
    const storage = sessionStorageAdapter();
    const intent = storage.get('authIntent') === 'signup' ? 'signup' : 'login';
    const fail = (message: string, email?: string) => {
      setFailure(message);
      const query = new URLSearchParams({ error: message });
      if (email) query.set('email', email);
      setTimeout(() => navigate(`/${intent}?${query}`, { replace: true }), AUTH_ERROR_REDIRECT_MS);
    };
    const providerError = params.get('error_description') ?? params.get('error');
    const code = params.get('code');
    if (providerError) fail(cleanAuthMessage(providerError) || ERROR_TEXT.authFailed);
    else if (!code) fail(`${ERROR_TEXT.authFailed}: ${ERROR_TEXT.noAuthCode}`);
    else {
      socialSignIn(code, params.get('state'))
        .then((response) => {
          storage.remove('authIntent');
          if (isChallenge(response)) setChallenge(response);
          else finish(response);
        })
        .catch((error: unknown) => {
          const message = cleanAuthMessage(errorMessage(error)) || ERROR_TEXT.socialLoginFailed;
          if (message === ERROR_TEXT.emailAlreadyRegistered) {
            if (intent === 'signup') fail(message, params.get('email') ?? undefined);
            else fail(ERROR_TEXT.socialLoginUsePassword);
          } else fail(message);
        });
    }
  }, [navigate, params, signIn]);

  if (challenge && !failure) {
    return (
      <AuthLayout title={CHALLENGE_TITLES[challenge.challenge]} subtitle={challenge.username}>
        <SignInChallenge
          email={challenge.username ?? ''}
          challenge={challenge}
          onSignedIn={finish}
          onNextChallenge={setChallenge}
          onRestart={(message) => navigate(message ? `/login?${new URLSearchParams({ error: message })}` : '/login', { replace: true })}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={failure ? 'Authentication Failed' : 'Completing authentication...'}>
      {failure ? (
        <div role="alert" className="callback-failure">
          <p>{failure}</p>
          <p className="muted">Redirecting to login page...</p>
        </div>
      ) : (
        <div className="spinner" role="status" aria-label="Completing authentication" />
      )}
    </AuthLayout>
  );
}
