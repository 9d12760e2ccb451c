import { Controller, type MessageEvent, Sse, UseGuards } from '@nestjs/common';
import { filter, interval, map, merge, type Observable } from 'rxjs';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { DeploymentEvents } from '../deployments/deployment-events.service';
import { RunsService } from '../runs/runs.service';

/** Keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

/** What the dashboard and the desktop app receive for each stored execution of the caller's jobs. */
export interface ExecutionEvent {
  run_id: string;
  job_id: string;
  trigger: string;
  attempt: number;
  status: 'success' | 'failed';
  response_code: number | null;
  duration_ms: number;
  error_message: string | null;
  scheduled_for: string;
  executed_at: string;
  will_retry: boolean;
}

@Controller('api')
@UseGuards(BearerAuthGuard)
export class EventsController {
  constructor(
    private readonly events: RunsService,
    private readonly deployments: DeploymentEvents,
  ) {}

  /** Server-sent events: `execution` for each outcome of the caller's jobs, `ping` as a heartbeat. */
  @Sse('events')
  stream(@CurrentUser() user: AuthenticatedUser): Observable<MessageEvent> {
    const executions = this.events.outcomes$.pipe(
      filter((o) => o.userId === user.id),
      map(
        (o): MessageEvent => ({
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
        }),
      ),
    );
    const heartbeat = interval(HEARTBEAT_MS).pipe(map((): MessageEvent => ({ type: 'ping', data: {} })));
    // Each change of one of the caller's n8n deployments (a step started or ended), with the whole deployment.
    const deployments = this.deployments.changes$.pipe(
      filter((c) => c.userId === user.id),
      map((c): MessageEvent => ({ type: 'deployment', data: c.deployment })),
    );
    return merge(executions, deployments, heartbeat);
  }
}
