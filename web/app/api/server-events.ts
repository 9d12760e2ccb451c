import { useEffect, useRef } from 'react';
import { accountHeader } from '../accounts/current-account';
import { apiBase } from '../platform/platform';
import { useSession } from '../session/session-store';

/** Waits between reconnects: from 1 s doubling, capped at 30 s. */
const RECONNECT = { initialMs: 1000, maxMs: 30_000 };

/** Splits an SSE byte stream into the JSON `data:` payloads of its events. */
export function parseSseChunk(buffer: string): { events: unknown[]; rest: string } {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  const events: unknown[] = [];
  for (const block of blocks) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      events.push(JSON.parse(data));
    } catch {
      // A keep-alive or a malformed event is skipped.
    }
  }
  return { events, rest };
}

type EventHandler = (event: unknown) => void;

/** What the stream tells about the server: it answered and streams ('open'), or the connection broke ('lost'). */
export type StreamState = 'open' | 'lost';
type StateHandler = (state: StreamState) => void;

const eventHandlers = new Set<EventHandler>();
const stateHandlers = new Set<StateHandler>();
let following: AbortController | null = null;

const announce = (state: StreamState) => stateHandlers.forEach((handler) => handler(state));

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Follows GET /api/events with fetch streaming (EventSource cannot send the
 * bearer header) and hands each event to every subscriber. Reconnects with
 * backoff; stops for good when there is no session, or the server says the
 * stream does not exist or the session is not accepted.
 */
async function follow(signal: AbortSignal): Promise<void> {
  let delay = RECONNECT.initialMs;
  try {
    while (!signal.aborted) {
      const token = useSession.getState().accessToken;
      if (!token) return;
      try {
        const response = await fetch(`${apiBase()}/events`, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...accountHeader() },
          signal,
        });
        if ([401, 403, 404].includes(response.status)) return;
        if (response.ok && response.body) {
          delay = RECONNECT.initialMs;
          announce('open');
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const parsed = parseSseChunk(buffer + value);
            buffer = parsed.rest;
            for (const event of parsed.events) eventHandlers.forEach((handler) => handler(event));
          }
          if (!signal.aborted) announce('lost');
        }
      } catch {
        if (signal.aborted) return;
        announce('lost');
      }
      await wait(delay, signal);
      delay = Math.min(delay * 2, RECONNECT.maxMs);
    }
  } finally {
    if (following?.signal === signal) following = null;
  }
}

/**
 * One event stream per page, shared by every subscriber: it opens with the
 * first and closes after the last leaves. `onState` hears the stream open and
 * break (a free signal of whether the server is reachable). Answers the unsubscribe.
 */
export function subscribeServerEvents(onEvent: EventHandler, onState?: StateHandler): () => void {
  eventHandlers.add(onEvent);
  if (onState) stateHandlers.add(onState);
  if (!following) {
    following = new AbortController();
    void follow(following.signal);
  }
  return () => {
    eventHandlers.delete(onEvent);
    if (onState) stateHandlers.delete(onState);
    if (eventHandlers.size === 0) {
      following?.abort();
      following = null;
    }
  };
}

/** Hands every event's JSON payload of the shared server event stream to `onEvent`; callers pick the events they care about. */
export function useServerEvents(onEvent: (event: unknown) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => subscribeServerEvents((event) => handler.current(event)), []);
}
