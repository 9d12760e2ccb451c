import { createParser } from 'eventsource-parser';
import { type ExecutionEvent, executionEventSchema } from '@cronbeam/shared/notifications/execution-event';
import { systemTimers, type Timers } from '../timers';

export type FeedState = 'stopped' | 'connecting' | 'live' | 'offline';

/** Reconnects wait 1 s doubling plus jitter, at most 30 s. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_CEILING_MS = 30_000;
/** The server sends a ping every 25 s: this long without a byte means the connection died silently. */
export const SILENCE_TIMEOUT_MS = 60_000;
/** Run ids remembered to drop outcomes a resume sends again. */
const SEEN_IDS_KEPT = 2_000;

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const exponential = RECONNECT_BASE_MS * 2 ** Math.min(Math.max(attempt - 1, 0), 16);
  return Math.min(RECONNECT_CEILING_MS, Math.round(exponential + random() * exponential * 0.5));
}

/** What the feed needs of the session. */
export interface FeedCredentials {
  accessToken(): Promise<string | null>;
  /** Called on a 401: true when new tokens were obtained, false when the session has ended. */
  refresh(): Promise<boolean>;
}

export interface EventFeedOptions {
  serverUrl: () => string;
  credentials: FeedCredentials;
  timers?: Timers;
  random?: () => number;
  fetch?: typeof fetch;
}

/**
 * Follows `GET /api/events` for the signed-in user: each execution outcome
 * once, in order, across reconnects. A dropped stream reconnects with
 * `Last-Event-ID`, so the server replays what was stored meanwhile; ids seen
 * before are dropped. While the server cannot be reached the feed is
 * `offline` and retries with backoff; a 401 refreshes the session once, and
 * a session that cannot be refreshed stops the feed.
 */
export class EventFeed {
  private currentState: FeedState = 'stopped';
  private lastEventId: string | null = null;
  private readonly seen = new Set<string>();
  private abort: AbortController | null = null;
  private retryTimer: unknown = null;
  private silenceTimer: unknown = null;
  private attempt = 0;
  private running = false;
  private readonly outcomeListeners = new Set<(event: ExecutionEvent) => void>();
  private readonly stateListeners = new Set<(state: FeedState) => void>();
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: EventFeedOptions) {
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? Math.random;
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  get state(): FeedState {
    return this.currentState;
  }

  onOutcome(listener: (event: ExecutionEvent) => void): () => void {
    this.outcomeListeners.add(listener);
    return () => this.outcomeListeners.delete(listener);
  }

  onState(listener: (state: FeedState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    void this.connect();
  }

  /** Stops following; `forget` drops the resume point (another account signs in next). */
  stop(forget = false): void {
    this.running = false;
    this.clearTimers();
    this.abort?.abort();
    this.abort = null;
    if (forget) {
      this.lastEventId = null;
      this.seen.clear();
    }
    this.setState('stopped');
  }

  /** Reconnects now (the network came back, the server URL changed). */
  reconnect(): void {
    if (!this.running) return;
    this.clearTimers();
    this.abort?.abort();
    this.attempt = 0;
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    this.setState(this.currentState === 'offline' ? 'offline' : 'connecting');
    const token = await this.options.credentials.accessToken();
    if (!this.running) return;
    if (!token) return this.stop();
    const abort = new AbortController();
    this.abort = abort;
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
    if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
    let response: Response;
    try {
      response = await this.fetch(`${this.options.serverUrl()}/api/events`, { headers, signal: abort.signal });
    } catch {
      if (abort.signal.aborted) return;
      return this.retryLater();
    }
    if (response.status === 401) {
      await response.body?.cancel();
      if (await this.options.credentials.refresh()) return void this.connect();
      return this.stop();
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return this.retryLater();
    }
    this.attempt = 0;
    this.setState('live');
    await this.read(response.body, abort);
    if (this.abort === abort && this.running) {
      // The server (or the network) ended the stream: resume where it stopped.
      this.setState('connecting');
      this.abort = null;
      void this.connect();
    }
  }

  private async read(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<void> {
    const parser = createParser({
      onEvent: (message) => {
        if (message.event !== 'execution') return;
        let event: ExecutionEvent;
        try {
          event = executionEventSchema.parse(JSON.parse(message.data));
        } catch {
          return; // A newer server's event this client does not understand.
        }
        this.deliver(event, message.id);
      },
    });
    const decoder = new TextDecoder();
    const reader = body.getReader();
    this.armSilence(abort);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.armSilence(abort);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Connection reset or aborted: the caller decides whether to reconnect.
    } finally {
      this.timers.clearTimeout(this.silenceTimer);
      this.silenceTimer = null;
    }
  }

  private deliver(event: ExecutionEvent, id: string | undefined): void {
    this.lastEventId = id ?? event.run_id;
    if (this.seen.has(event.run_id)) return;
    this.seen.add(event.run_id);
    if (this.seen.size > SEEN_IDS_KEPT) this.seen.delete(this.seen.values().next().value as string);
    for (const listener of this.outcomeListeners) listener(event);
  }

  private armSilence(abort: AbortController): void {
    this.timers.clearTimeout(this.silenceTimer);
    this.silenceTimer = this.timers.setTimeout(() => abort.abort(), SILENCE_TIMEOUT_MS);
  }

  private retryLater(): void {
    if (!this.running) return;
    this.setState('offline');
    this.attempt += 1;
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, reconnectDelay(this.attempt, this.random));
  }

  private clearTimers(): void {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    if (this.silenceTimer !== null) this.timers.clearTimeout(this.silenceTimer);
    this.retryTimer = null;
    this.silenceTimer = null;
  }

  private setState(state: FeedState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    for (const listener of this.stateListeners) listener(state);
  }
}
