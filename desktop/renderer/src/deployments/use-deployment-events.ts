import type { Deployment } from '@shared/deployments/deployment-types';
import { useEffect, useRef } from 'react';
import { parseSseChunk } from '../monitoring/execution-events';
import { apiBase } from '../platform/platform';
import { useSession } from '../session/session-store';

const RECONNECT = { initialMs: 1000, maxMs: 30_000 };

function isDeployment(event: unknown): event is Deployment {
  return Boolean(event && typeof event === 'object' && typeof (event as Deployment).deployment_id === 'string' && Array.isArray((event as Deployment).steps));
}

/**
 * Follows the server's event stream (GET /api/events) for `deployment`
 * events: each carries the whole deployment with its steps, pushed as a
 * step starts or ends. fetch streaming, since EventSource cannot send the
 * bearer header; reconnects with backoff.
 */
export function useDeploymentEvents(onDeployment: (deployment: Deployment) => void): void {
  const handler = useRef(onDeployment);
  handler.current = onDeployment;
  useEffect(() => {
    const abort = new AbortController();
    let delay = RECONNECT.initialMs;
    const follow = async () => {
      while (!abort.signal.aborted) {
        const token = useSession.getState().accessToken;
        if (!token) return;
        try {
          const response = await fetch(`${apiBase()}/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: abort.signal });
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
              for (const event of parsed.events) if (isDeployment(event)) handler.current(event);
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
