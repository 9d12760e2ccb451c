import { Controller, Headers, type MessageEvent, Res, Sse, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, EMPTY, filter, from, interval, map, merge, Observable, switchMap, takeUntil } from 'rxjs';
import { EVENT_REPLAY_LIMIT, type ExecutionEvent } from '@cronbeam/shared/notifications/execution-event';
import { ApiError } from '../../common/http/api-error';
import { type AuthenticatedUser, CurrentUser, sessionEndedFor } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { UsersService } from '../auth/users.service';
import { DeploymentEvents } from '../deployments/deployment-events.service';
import { RunsService, type StoredOutcome } from '../runs/runs.service';
import { EventStreamSlots } from './event-stream-slots';

/** Keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

/** Event ids are run ids (UUIDs); anything else cannot come from this stream. */
const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toMessage(o: StoredOutcome): MessageEvent {
  return {
    type: 'execution',
    id: o.runId,
    data: {
      run_id: o.runId,
      job_id: o.jobId,
      trigger: o.trigger,
      attempt: o.attempt,
      status: o.status,
      response_code: o.responseCode,
      duration_ms: o.durationMs,
      error_message: o.errorMessage,
      scheduled_for: o.scheduledFor.toISOString(),
      executed_at: o.executedAt.toISOString(),
      will_retry: o.willRetry,
    } satisfies ExecutionEvent,
  };
}

@Controller('api')
@UseGuards(BearerAuthGuard)
export class EventsController {
  constructor(
    private readonly runs: RunsService,
    private readonly deployments: DeploymentEvents,
    private readonly users: UsersService,
    private readonly slots: EventStreamSlots,
  ) {}

  /**
   * Server-sent events: `execution` for each outcome of the caller's jobs, `ping` as a heartbeat.
   * With `Last-Event-ID` (the last run id the client saw) the outcomes stored since then come first.
   * At most EVENT_STREAMS_PER_USER streams per user are open at once (429 past it); a stream ends
   * when the user's sessions end (signed out everywhere, password reset, account deleted).
   */
  @Sse('events')
  stream(
    @CurrentUser() user: AuthenticatedUser,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('last-event-id') lastEventId?: string,
  ): Observable<MessageEvent> {
    const resumeAfter = lastEventId?.trim() || null;
    if (resumeAfter !== null && !EVENT_ID.test(resumeAfter)) {
      throw ApiError.badRequest('Last-Event-ID must be the id of an event this stream sent');
    }
    const release = this.slots.take(user.id);
    // The response closes on every path (ended here, client gone, never started): the slot is given back once.
    reply.raw.once('close', release);
    const live = this.runs.outcomes$.pipe(filter((o) => o.accountId === user.accountId));
    const executions = resumeAfter === null ? live : this.resumed(user.accountId, resumeAfter, live);
    const heartbeat = interval(HEARTBEAT_MS).pipe(map((): MessageEvent => ({ type: 'ping', data: {} })));
    // Each change of one of the caller's n8n deployments (a step started or ended), with the whole deployment.
    const deployments = this.deployments.changes$.pipe(
      filter((c) => c.accountId === user.accountId),
      map((c): MessageEvent => ({ type: 'deployment', data: c.deployment })),
    );
    return merge(executions.pipe(map(toMessage)), deployments, heartbeat).pipe(takeUntil(this.sessionEnded(user)));
  }

  /**
   * Emits once the caller's session is over, or they are no longer a member
   * of the account the stream is in: at once when this instance ends the
   * user's sessions or the membership, and otherwise (ended by another
   * instance) found by the check on each heartbeat that the bearer guard
   * makes on every request.
   */
  private sessionEnded(user: AuthenticatedUser): Observable<unknown> {
    const endedHere = merge(
      this.users.sessionsEnded$.pipe(filter((id) => id === user.id)),
      this.users.membershipsEnded$.pipe(filter((ended) => ended.userId === user.id && ended.accountId === user.accountId)),
    );
    const endedElsewhere = interval(HEARTBEAT_MS).pipe(
      // A failed read proves nothing: the stream stays, and the next heartbeat checks again.
      switchMap(() => from(this.users.findCallerIn(user.id, user.accountId)).pipe(catchError(() => EMPTY))),
      filter((caller) => sessionEndedFor(caller, user.tokenIssuedAt) || caller?.role === null),
    );
    return merge(endedHere, endedElsewhere);
  }

  /**
   * Stored outcomes after `lastRunId`, then the live ones. Live outcomes are
   * held from before the history is read, so one stored in between is sent
   * once (from the history) and none falls in the gap. An unknown id (pruned,
   * or not the caller's) replays nothing.
   */
  private resumed(accountId: string, lastRunId: string, live: Observable<StoredOutcome>): Observable<StoredOutcome> {
    return new Observable<StoredOutcome>((subscriber) => {
      let held: StoredOutcome[] | null = [];
      let replayed = new Set<string>();
      const subscription = live.subscribe({
        next: (o) => {
          if (held) held.push(o);
          else if (!replayed.has(o.runId)) subscriber.next(o);
        },
        error: (e: unknown) => subscriber.error(e),
      });
      this.runs.outcomesAfter(accountId, lastRunId, EVENT_REPLAY_LIMIT).then(
        (missed) => {
          // An outcome stored while the history was read may be published after it: the set (at most
          // EVENT_REPLAY_LIMIT ids) keeps it from being sent twice.
          replayed = new Set((missed ?? []).map((o) => o.runId));
          for (const o of missed ?? []) subscriber.next(o);
          const waiting = held ?? [];
          held = null;
          for (const o of waiting) if (!replayed.has(o.runId)) subscriber.next(o);
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => subscription.unsubscribe();
    });
  }
}
