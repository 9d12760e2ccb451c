import { useEffect, useRef } from 'react';
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

/**
 * Follows the server's event stream (GET /api/events) and hands every event's
 * JSON payload to `onEvent`; callers pick the events they care about. fetch
 * streaming, since EventSource cannot send the bearer header. Reconnects with
 * backoff; stops for good when there is no session, or the server says the
 * stream does not exist or the session is not accepted.
 */
export function useServerEvents(onEvent: (event: unknown) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const abort = new AbortController();
    let delay = RECONNECT.initialMs;
    const follow = async () => {
      while (!abort.signal.aborted) {
        const token = useSession.getState().accessToken;
        if (!token) return;
        try {
          const response = await fetch(`${apiBase()}/events`, {
            headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
            signal: abort.signal,
          });
          if ([401, 403, 404].includes(response.status)) return;
          if (response.ok && response.body) {
            delay = RECONNECT.initialMs;
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = '';
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              const parsed = parseSseChunk(buffer + value);
              buffer = parsed.rest;
              for (const event of parsed.events) handler.current(event);
            }
          }
        } catch {
          if (abort.signal.aborted) return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, RECONNECT.maxMs);
      }
    };
    void follow();
    return () => abort.abort();
  }, []);
}
