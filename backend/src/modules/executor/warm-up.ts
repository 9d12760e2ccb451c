import { randomUUID } from 'node:crypto';
import type { ExecutionRequest, ExecutionResult } from './http-executor.service';
import { LoopbackSink } from './loopback-sink';

/** A warm-up request that takes this long means the machine is too busy for it to be worth going on. */
const WARM_UP_TIMEOUT_MS = 5_000;
/** The warm-up's connections are dropped and opened again this many times. */
const WARM_UP_PHASES = 3;
/** Requests started per event-loop turn, as the dispatcher does. */
const WARM_UP_SLICE = 48;
/** While paused, the warm-up looks again this often. */
const WARM_UP_PAUSE_POLL_MS = 5;
/** Waits of the warm-up (connections opening, closing) end after this long. */
const WARM_UP_WAIT_MS = 1_000;

export interface WarmUpOptions {
  /** Requests in flight at a time. */
  inFlight: number;
  /** Ends the warm-up (an instant is near, or the process is stopping). */
  stop: () => boolean;
  /** Holds it back while true (the scheduler is claiming). */
  pause?: () => boolean;
  /** Runs a full garbage collection, if the process can (called once, after the first phase). */
  collect?: () => void;
  /** How many requests; by default ExecutorSettings.warmUpRequests. */
  requests?: number;
}

/** The parts of the executor a burst runs through, as the warm-up drives them. */
export interface WarmUpTarget {
  /** Connections a burst to one origin opens ahead of time. */
  readonly connectionsPerOrigin: number;
  /** Opens `count` connections to the URL's origin ahead of time, as before a burst. */
  openConnections(url: URL, count: number): void;
  /** Connections to the URL's origin still opening. */
  connectionsOpening(url: URL): number;
  /** Connections the pool holds to the origin. */
  connectedTo(origin: string): number;
  /** Prepares and sends one request the way a job's goes; `trustedOrigin` alone is let past the target rules. */
  send(request: ExecutionRequest, trustedOrigin: string): Promise<ExecutionResult>;
}

/**
 * Sends up to `requests` requests, `inFlight` at a time, through the code a
 * burst runs (prepare, connections opened ahead, dispatch, the pool,
 * response capture, connections closing), to a sink this function opens on
 * loopback and closes before it returns, so that V8 has compiled that code
 * before the first real instant of a new process. It waits while `pause()`
 * holds (claims are being made: they must end before their instant) and
 * stops when `stop()` does (an instant is near). Nothing about it can be
 * chosen from outside: the sink's address is its own, and only that exact
 * origin is let past the target rules, for these requests only. Answers the
 * number of requests sent; a failed request ends it sooner.
 */
export async function warmUp(target: WarmUpTarget, { inFlight, stop, pause = () => false, collect, requests = 0 }: WarmUpOptions): Promise<number> {
  if (requests <= 0) return 0;
  const sink = await LoopbackSink.open();
  const url = new URL(sink.origin);
  let sent = 0;
  try {
    for (let phase = 0; phase < WARM_UP_PHASES && sent < requests && !stop(); phase++) {
      // A full collection after the first phase clears its garbage; the later phases compile the code again for
      // objects that are alive. (Before the last phase, a third of the requests were too few to compile it again.)
      if (phase === 1) collect?.();
      // As before a burst: connections opened ahead, then taken by the pool.
      target.openConnections(url, target.connectionsPerOrigin);
      await waitUntil(() => target.connectionsOpening(url) === 0, stop);
      const phaseEnd = Math.min(requests, sent + Math.ceil(requests / WARM_UP_PHASES));
      while (sent < phaseEnd && !stop()) {
        if (pause()) {
          await new Promise((resolve) => setTimeout(resolve, WARM_UP_PAUSE_POLL_MS));
          continue;
        }
        const round: Array<Promise<ExecutionResult>> = [];
        for (let i = 0; i < inFlight && sent < phaseEnd; i++, sent++) {
          round.push(target.send(warmUpRequest(sink.origin, sent), sink.origin));
          // The dispatcher starts a burst in slices, one per event-loop turn.
          if (i % WARM_UP_SLICE === WARM_UP_SLICE - 1) await new Promise(setImmediate);
        }
        if ((await Promise.all(round)).some((r) => !r.success)) return sent;
      }
      // Servers close idle connections: the pool's closing paths are part of the code a burst meets.
      sink.dropConnections();
      await waitUntil(() => target.connectedTo(sink.origin) === 0, stop);
    }
  } finally {
    await sink.close();
  }
  return sent;
}

/** One warm-up request: mostly GETs, as most jobs are; every fourth a POST with a body and a header. */
function warmUpRequest(origin: string, n: number): ExecutionRequest {
  const post = n % 4 === 0;
  return {
    executionId: randomUUID(),
    url: `${origin}/warm-up?n=${n}`,
    method: post ? 'POST' : 'GET',
    headers: post ? { 'content-type': 'application/json' } : {},
    body: post ? '{"warm":true}' : '',
    timeoutMs: WARM_UP_TIMEOUT_MS,
  };
}

/** Polls `test` every few milliseconds until it holds, `stop()` says so, or WARM_UP_WAIT_MS passed. */
async function waitUntil(test: () => boolean, stop: () => boolean): Promise<void> {
  const until = performance.now() + WARM_UP_WAIT_MS;
  while (!test() && !stop() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 2));
}
