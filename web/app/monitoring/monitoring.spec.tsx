import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import { render, screen } from '@testing-library/react';
import { ApiRequestError } from '../api/api-error';
import { formatResponse, outcomeLabel } from './execution-details';
import { parseSseChunk } from '../api/server-events';
import { groupByDueRun, latestLogs, logsErrorText } from './job-logs';
import { RunsChart, niceCeiling } from './runs-chart';

const entry = (minute: number, patch: Partial<JobLogEntry> = {}): JobLogEntry => ({
  run_id: `run-${minute}`,
  executed_at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  scheduled_for: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  attempt: 1,
  trigger: 'schedule',
  status: 'success',
  response_code: 200,
  duration_ms: 10 + minute,
  error_message: null,
  response_body: null,
  possible_duplicate: false,
  alert_note: null,
  ...patch,
});

describe('monitoring', () => {
  it('keeps the 10 latest executions, newest first, whatever order the server used', () => {
    const logs = Array.from({ length: 15 }, (_, i) => entry(i));
    const shuffled = [...logs.filter((_, i) => i % 2 === 1), ...logs.filter((_, i) => i % 2 === 0)];
    const latest = latestLogs(shuffled);
    expect(latest).toHaveLength(10);
    expect(latest.map((l) => l.run_id)).toEqual(Array.from({ length: 10 }, (_, i) => `run-${14 - i}`));
  });

  it('groups retries under the due run they belong to, newest due run first; each manual run stands alone', () => {
    const due = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
    const logs = latestLogs([
      entry(1, { run_id: 'a1', status: 'failed' }),
      entry(2, { run_id: 'a2', status: 'failed', attempt: 2, trigger: 'retry', scheduled_for: due(1) }),
      entry(3, { run_id: 'a3', attempt: 3, trigger: 'retry', scheduled_for: due(1) }),
      entry(4, { run_id: 'm1', trigger: 'manual' }),
      entry(5, { run_id: 'm2', trigger: 'manual', scheduled_for: due(4) }),
      entry(6, { run_id: 'b1' }),
    ]);
    expect(groupByDueRun(logs).map((run) => run.attempts.map((a) => a.run_id))).toEqual([['b1'], ['m2'], ['m1'], ['a1', 'a2', 'a3']]);
  });

  it('shows anything but success as FAILED', () => {
    expect(outcomeLabel(entry(1))).toBe('SUCCESS');
    expect(outcomeLabel(entry(1, { status: 'skipped' }))).toBe('FAILED');
  });

  it('formats a JSON response, or summarises when there is none', () => {
    expect(formatResponse(entry(1, { response_body: '{"a":1}' }))).toEqual({ json: true, text: '{\n  "a": 1\n}' });
    expect(formatResponse(entry(1, { response_body: 'plain' }))).toEqual({ json: false, text: 'plain' });
    expect(formatResponse(entry(1, { status: 'failed', response_code: null, duration_ms: 5, error_message: 'timeout' })).text).toBe(
      'Status: FAILED\nNo HTTP response\n5 ms\nError: timeout',
    );
  });

  it('words the logs errors as the catalogue does', () => {
    expect(logsErrorText(new ApiRequestError(401, 'x'))).toBe('Authentication error: Please log in again');
    expect(logsErrorText(new ApiRequestError(404, 'x'))).toBe('Logs endpoint not found. This feature may not be available yet.');
    expect(logsErrorText(new ApiRequestError(500, 'Database down'))).toBe('Failed to load logs: Database down');
  });

  it('splits an event stream into JSON events, keeping an unfinished one for later', () => {
    const { events, rest } = parseSseChunk('data: {"job_id":"a"}\n\n: keep-alive\n\nevent: run\ndata: {"job_id":"b"}\n\ndata: {"job_');
    expect(events).toEqual([{ job_id: 'a' }, { job_id: 'b' }]);
    expect(rest).toBe('data: {"job_');
  });

  it('charts executions with a readable summary', () => {
    render(<RunsChart history={[entry(3, { status: 'failed', duration_ms: 120 }), entry(2), entry(1)]} />);
    expect(screen.getByRole('img', { name: /3 recent executions: 2 succeeded, 1 failed/ })).toBeInTheDocument();
    expect(niceCeiling(120)).toBe(200);
    expect(niceCeiling(0)).toBe(1);
  });

  it.each([
    [1, ['0 ms', '1 ms', '2 ms']],
    [0, ['0 ms', '1 ms', '2 ms']],
    [3, ['0 ms', '2 ms', '4 ms']],
    [120, ['0 ms', '100 ms', '200 ms']],
    [1800, ['0 ms', '1 s', '2 s']],
    [4200, ['0 ms', '5 s', '10 s']],
  ])('labels the duration axis of a %i ms longest run with distinct ticks and units', (longest, labels) => {
    render(<RunsChart history={[entry(2, { duration_ms: longest }), entry(1, { duration_ms: 0 })]} />);
    const ticks = screen.getAllByTestId('duration-tick').map((t) => t.textContent);
    expect(ticks).toEqual(labels);
    expect(new Set(ticks).size).toBe(3);
  });
});
