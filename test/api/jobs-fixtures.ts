import { Client } from 'pg';
import type { JobDefinition } from '@cronbeam/shared/jobs/job-types';
import type { PlanId } from '@cronbeam/shared/plans';
import type { TestServer } from '../support/test-server';

/** Operator token the job tests start their servers with, to change plans through /api/admin. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

let counter = 0;

/** A valid definition with a unique name; overrides may make it invalid on purpose. */
export function jobDefinition(overrides: Record<string, unknown> = {}): JobDefinition {
  counter += 1;
  return { name: `job-${counter}`, url: 'https://example.com/hook', cron_expression: '*/5 * * * *', ...overrides } as JobDefinition;
}

export async function setPlan(server: TestServer, userId: string, plan: PlanId): Promise<void> {
  const res = await server.http.put(`/api/admin/users/${userId}/plan`, { plan }, { headers: { 'x-admin-token': TEST_ADMIN_TOKEN } });
  if (res.status !== 200) throw new Error(`set plan answered ${res.status}: ${res.text}`);
}

/** Runs SQL on the test server's database (to plant job_runs the scheduler would write, or to inspect rows). */
export async function sql<T = Record<string, unknown>>(server: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: server.database.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface PlantedRun {
  executedAt: string;
  status?: 'success' | 'failed' | 'skipped' | 'missed';
  state?: 'queued' | 'running' | 'done';
  responseCode?: number;
}

/** Inserts finished runs for a job, as the scheduler records them. */
export async function plantRuns(server: TestServer, jobId: string, userId: string, runs: PlantedRun[]): Promise<void> {
  for (const [i, run] of runs.entries()) {
    await sql(
      server,
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, attempt, due_at, state, status, executed_at, finished_at, response_code, duration_ms)
       VALUES ($1, $2, 'schedule', $3, 1, $3, $4, $5, $3, $3, $6, 10)`,
      [jobId, userId, run.executedAt, run.state ?? 'done', run.status ?? (i % 2 ? 'failed' : 'success'), run.responseCode ?? 200],
    );
  }
}

/** `count` distinct instants, one minute apart from `start`, in shuffled order. */
export function shuffledMinutes(start: string, count: number): string[] {
  const instants = Array.from({ length: count }, (_, i) => new Date(Date.parse(start) + i * 60_000).toISOString());
  for (let i = instants.length - 1; i > 0; i -= 1) {
    const j = (i * 7919) % (i + 1);
    [instants[i], instants[j]] = [instants[j], instants[i]];
  }
  return instants;
}
