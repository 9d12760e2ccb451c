import { useEffect } from 'react';
import { create } from 'zustand';
import { authApi } from '../api/auth-api';
import { withRetry } from '../api/retry';
import { subscribeServerEvents, type StreamState } from '../api/server-events';

export type ConnectionState = 'checking' | 'connected' | 'disconnected';

/** While connected: a ping now and then catches an outage the event stream did not report. */
export const WATCH_INTERVAL_MS = 15_000;
/** While disconnected: how often a ping looks whether the server is back. */
export const RECHECK_INTERVAL_MS = 5_000;
/** A ping not answered by then counts as failed (a server that hangs is as gone as one that refuses). */
const PING_TIMEOUT_MS = 3_000;

/** The backend's reachability, shared by the top bar badge and the System Status panel. */
export const useConnection = create<{ state: ConnectionState }>(() => ({ state: 'checking' }));

const setState = (state: ConnectionState) => useConnection.setState({ state });

/**
 * Keeps watching the backend. Checking, then connected, or disconnected after
 * 4 failed pings with waits of 1, 2 and 4 s (a single lost ping is not an
 * outage). Connected, it pings every WATCH_INTERVAL_MS and re-checks at once
 * when the event stream breaks; disconnected, it pings every
 * RECHECK_INTERVAL_MS, and a ping answered or the stream reopening makes it
 * connected again.
 */
class ConnectionWatch {
  /** Bumped whenever a newer check supersedes the running one, which then stops where it is. */
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  start(): () => void {
    setState('checking');
    void this.verify();
    const unsubscribe = subscribeServerEvents(() => undefined, (stream) => this.onStream(stream));
    return () => {
      unsubscribe();
      this.supersede();
    };
  }

  private supersede(): number {
    clearTimeout(this.timer);
    this.generation += 1;
    return this.generation;
  }

  private onStream(stream: StreamState): void {
    const state = useConnection.getState().state;
    if (stream === 'open' && state !== 'connected') {
      this.supersede();
      setState('connected');
      this.schedule(() => this.verify(), WATCH_INTERVAL_MS);
    } else if (stream === 'lost' && state === 'connected') {
      void this.verify();
    }
  }

  /** The spec's rule from the current state: the first failed ping of a connected backend shows checking. */
  private async verify(): Promise<void> {
    const generation = this.supersede();
    const current = () => generation === this.generation;
    const ping = async () => {
      try {
        await authApi.ping(AbortSignal.timeout(PING_TIMEOUT_MS));
      } catch (error) {
        if (current() && useConnection.getState().state === 'connected') setState('checking');
        throw error;
      }
    };
    try {
      await withRetry(ping, { shouldRetry: current });
      if (!current()) return;
      setState('connected');
      this.schedule(() => this.verify(), WATCH_INTERVAL_MS);
    } catch {
      if (!current()) return;
      setState('disconnected');
      this.schedule(() => this.recheck(), RECHECK_INTERVAL_MS);
    }
  }

  /** One ping while disconnected: answered, the backend is back. */
  private async recheck(): Promise<void> {
    const generation = this.supersede();
    try {
      await authApi.ping(AbortSignal.timeout(PING_TIMEOUT_MS));
      if (generation !== this.generation) return;
      setState('connected');
      this.schedule(() => this.verify(), WATCH_INTERVAL_MS);
    } catch {
      if (generation !== this.generation) return;
      this.schedule(() => this.recheck(), RECHECK_INTERVAL_MS);
    }
  }

  private schedule(step: () => Promise<void>, ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void step(), ms);
  }
}

/** Watches the backend while the component is mounted (the top bar) and answers its state. */
export function useBackendConnection(): ConnectionState {
  const state = useConnection((s) => s.state);
  useEffect(() => new ConnectionWatch().start(), []);
  return state;
}
