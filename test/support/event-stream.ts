import type { TestServer } from './test-server';

/** One server-sent event: its id, its name (`message` when unnamed) and its JSON data. */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: any;
}

/**
 * Opens GET /api/events as `accessToken` (optionally resuming with
 * Last-Event-ID) and collects its events in the background until `close()`.
 * A refused stream (not `text/event-stream`) is left unread, so the test can
 * read its error body from `res`.
 */
export async function openEventStream(server: TestServer, accessToken: string, lastEventId?: string, extraHeaders: Record<string, string> = {}) {
  const abort = new AbortController();
  const headers: Record<string, string> = { ...extraHeaders, authorization: `Bearer ${accessToken}` };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const res = await fetch(`${server.baseUrl}/api/events`, { headers, signal: abort.signal });
  const events: StreamEvent[] = [];
  let endedByServer = false;
  const pump = (async () => {
    if (!res.body || !res.headers.get('content-type')?.includes('text/event-stream')) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          endedByServer = true;
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) events.push({ id: /^id: (.*)$/m.exec(block)?.[1] ?? null, event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message', data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  /** The events named `name` received so far. */
  const named = (name: string) => events.filter((e) => e.event === name);
  return {
    res,
    events,
    named,
    /** Polls until `count` events named `name` arrived or `timeoutMs` passed; returns those received. */
    async waitForNamed(name: string, count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (named(name).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return named(name);
    },
    /** Polls until the server ended the stream or `timeoutMs` passed; true when it ended. */
    async waitForEnd(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!endedByServer && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return endedByServer;
    },
    close: async () => {
      abort.abort();
      await pump;
    },
  };
}

export type EventStream = Awaited<ReturnType<typeof openEventStream>>;
