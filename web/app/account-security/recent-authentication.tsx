import { useState, type FormEvent } from 'react';
import { create } from 'zustand';
import { AUTH_MESSAGES, REAUTHENTICATION_REQUIRED } from '@cronbeam/shared/auth/auth-messages';
import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import { apiRequest } from '../api/api-client';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { socialAuthorizeUrl } from '../api/auth-api';
import { apiBase, sessionStorageAdapter } from '../platform/platform';
import { useSession } from '../session/session-store';
import { Modal } from '../ui/modal';

/** The server's 403 for a sensitive operation on a session whose sign-in is too old. */
export function isReauthenticationRequired(error: unknown): boolean {
  return (
    error instanceof ApiRequestError &&
    error.status === 403 &&
    typeof error.detail === 'object' &&
    error.detail !== null &&
    (error.detail as { code?: unknown }).code === REAUTHENTICATION_REQUIRED
  );
}

interface PromptState {
  answer: ((confirmed: boolean) => void) | null;
  ask(): Promise<boolean>;
}

/** The one open confirmation, if any: the operation that needed it waits on its answer. */
const usePrompt = create<PromptState>((set, get) => ({
  answer: null,
  ask: () =>
    new Promise<boolean>((resolve) => {
      get().answer?.(false);
      set({
        answer: (confirmed) => {
          set({ answer: null });
          resolve(confirmed);
        },
      });
    }),
}));

/**
 * Runs a sensitive operation (new API key, account deletion, two-factor
 * enrolment). Should the server ask for a recent sign-in, the user confirms
 * it is them in ReauthenticatePrompt and the operation runs once more; if
 * they cancel, the server's refusal is what the caller sees.
 */
export async function withRecentAuthentication<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!isReauthenticationRequired(error) || !(await usePrompt.getState().ask())) throw error;
    return operation();
  }
}

/** Asks for the password (and the authenticator code when two-factor is on) and swaps in the fresh session's tokens. */
export function ReauthenticatePrompt() {
  const answer = usePrompt((s) => s.answer);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!answer) return null;

  const finish = (confirmed: boolean) => {
    setPassword('');
    setCode('');
    setError(null);
    setBusy(false);
    answer(confirmed);
  };
  const social = error === AUTH_MESSAGES.reauthenticateWithSocialProvider;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const refreshToken = sessionStorageAdapter().get('refreshToken');
      const tokens = await apiRequest<TokenResponse>('POST', '/auth/reauthenticate', {
        body: { password, ...(code.trim() ? { code: code.trim() } : {}), ...(refreshToken ? { refresh_token: refreshToken } : {}) },
      });
      useSession.getState().signIn(tokens);
      finish(true);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Modal title="Confirm it is you" onClose={() => finish(false)}>
      <form className="form" onSubmit={submit} noValidate aria-label="Confirm it is you">
        <p>{AUTH_MESSAGES.reauthenticationRequired}</p>
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        {social ? (
          <button
            type="button"
            className="button button-secondary button-block"
            onClick={() => {
              sessionStorageAdapter().set('authIntent', 'login');
              window.location.assign(socialAuthorizeUrl(apiBase(), 'login'));
            }}
          >
            Sign in again with Google
          </button>
        ) : (
          <>
            <div className="field">
              <label htmlFor="reauth-password">Password</label>
              <input id="reauth-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="reauth-code">Authenticator code (if two-factor is on)</label>
              <input id="reauth-code" type="text" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
            </div>
          </>
        )}
        <div className="button-row">
          {!social && (
            <button type="submit" className="button button-primary" disabled={busy || !password}>
              {busy ? 'Checking...' : 'Confirm'}
            </button>
          )}
          <button type="button" className="button button-secondary" onClick={() => finish(false)}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
