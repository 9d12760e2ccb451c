import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import { systemTimers, type Timers } from '../timers';
import { refreshRetryDelay } from './refresh-backoff';
import type { StoredTokens, TokenVault } from './token-vault';

export type SessionState = 'signed-out' | 'signed-in';

/** Refresh this long before the tokens expire (or at half their lifetime when that is shorter). */
export const REFRESH_AHEAD_MS = 60_000;

/** The server's answer to a failed identity call: the message from `{"detail": ...}`. */
export class SessionError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

export interface SessionOptions {
  /** The configured server's base URL (Settings may change it). */
  serverUrl: () => string;
  vault: TokenVault;
  timers?: Timers;
  random?: () => number;
  fetch?: typeof fetch;
}

function toStored(tokens: TokenResponse, now: number): StoredTokens {
  return { accessToken: tokens.access_token, idToken: tokens.id_token, refreshToken: tokens.refresh_token, expiresAt: now + tokens.expires_in * 1000 };
}

async function detailOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // not JSON
  }
  return `HTTP ${response.status}`;
}

/**
 * The signed-in account of the desktop app: signs in against the configured
 * server, keeps the tokens in the vault (so one sign-in survives restarts),
 * refreshes them before they expire — retrying network and server errors
 * with the identity backoff — and ends on sign-out or when the server
 * rejects the refresh token (revoked, expired, signed out everywhere).
 */
export class Session {
  private tokens: StoredTokens | null = null;
  private refreshTimer: unknown = null;
  private refreshing: Promise<boolean> | null = null;
  private readonly listeners = new Set<(state: SessionState) => void>();
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SessionOptions) {
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? Math.random;
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  get state(): SessionState {
    return this.tokens ? 'signed-in' : 'signed-out';
  }

  /** The stored tokens (for the window's snapshot); null when signed out. */
  get current(): StoredTokens | null {
    return this.tokens;
  }

  onChange(listener: (state: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** At start: the session the vault kept, refreshed at once if it has expired meanwhile. */
  async restore(): Promise<SessionState> {
    const stored = await this.options.vault.read();
    if (!stored) return this.state;
    this.tokens = stored;
    this.emit();
    this.scheduleRefresh();
    return this.state;
  }

  async signIn(email: string, password: string): Promise<void> {
    const response = await this.post('/api/auth/login', { email, password });
    if (!response.ok) throw new SessionError(response.status, await detailOf(response));
    const body = (await response.json()) as Partial<TokenResponse> & { challenge?: string };
    // Two-factor and new-password challenges need the window's forms; the window hands the tokens over after them.
    if (!body.access_token) throw new SessionError(401, body.challenge ? `Sign-in needs ${body.challenge}: continue in the Cronbeam window` : 'Authentication failed');
    await this.adopt(body as TokenResponse);
  }

  /** Takes over tokens obtained elsewhere (the window's own sign-in form). */
  async adopt(tokens: TokenResponse): Promise<void> {
    this.tokens = toStored(tokens, this.timers.now());
    await this.options.vault.write(this.tokens);
    this.emit();
    this.scheduleRefresh();
  }

  /** A valid access token, refreshed first if it is about to expire; null when signed out. */
  async accessToken(): Promise<string | null> {
    if (!this.tokens) return null;
    if (this.tokens.expiresAt - this.timers.now() <= 5_000) await this.refresh();
    return this.tokens?.accessToken ?? null;
  }

  /**
   * Exchanges the refresh token; true when new tokens were stored. A rejected
   * refresh token ends the session; network and server errors retry with backoff.
   */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.refreshWithRetries().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /** Revokes the refresh token at the server (best effort) and clears the vault. */
  async signOut(): Promise<void> {
    const tokens = this.tokens;
    this.cancelRefresh();
    this.tokens = null;
    if (tokens) {
      try {
        await this.post('/api/auth/logout', { refresh_token: tokens.refreshToken });
      } catch {
        // Offline: the local session still ends; the token expires at the server on its own.
      }
    }
    await this.options.vault.clear();
    if (tokens) this.emit();
  }

  /** Stops timers (app quit); keeps the vault. */
  dispose(): void {
    this.cancelRefresh();
  }

  private async refreshWithRetries(): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const tokens = this.tokens;
      if (!tokens) return false;
      let response: Response | null = null;
      try {
        response = await this.post('/api/auth/refresh', { refresh_token: tokens.refreshToken });
      } catch {
        response = null;
      }
      // Signed out (or signed in again) while the call was out: its answer is stale.
      if (this.tokens !== tokens) return this.tokens !== null;
      if (response?.ok) {
        await this.adopt((await response.json()) as TokenResponse);
        return true;
      }
      if (response && response.status >= 400 && response.status < 500 && response.status !== 429) {
        await this.endRejected();
        return false;
      }
      await new Promise<void>((resolve) => this.timers.setTimeout(resolve, refreshRetryDelay(attempt, this.random)));
    }
  }

  /** The server no longer accepts this session: forget it locally (nothing left to revoke). */
  private async endRejected(): Promise<void> {
    this.cancelRefresh();
    this.tokens = null;
    await this.options.vault.clear();
    this.emit();
  }

  private scheduleRefresh(): void {
    this.cancelRefresh();
    if (!this.tokens) return;
    const remaining = this.tokens.expiresAt - this.timers.now();
    const ahead = Math.min(REFRESH_AHEAD_MS, remaining / 2);
    this.refreshTimer = this.timers.setTimeout(() => {
      this.refreshTimer = null;
      void this.refresh();
    }, Math.max(0, remaining - ahead));
  }

  private cancelRefresh(): void {
    if (this.refreshTimer !== null) this.timers.clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
  }

  private post(path: string, body: unknown): Promise<Response> {
    return this.fetch(`${this.options.serverUrl()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this.state);
  }
}
