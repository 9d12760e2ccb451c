import { describe, expect, it } from '@jest/globals';
import { JOB_MESSAGES, jobDefinitionSchema, jobLogsQuerySchema, urlWarning } from './job-rules';
import { DEFAULT_RETRY_POLICY } from './retry-policy';

const valid = { name: 'nightly_backup-1', url: 'https://example.com/hook', cron_expression: '0 2 * * *' };

describe('job definition rules', () => {
  it('fills defaults and normalizes what the user typed', () => {
    const result = jobDefinitionSchema.parse({
      ...valid,
      name: '  nightly_backup-1 ',
      method: ' post ',
      headers: { ' X-Token ': ' abc ', 'X-Empty': '  ', '  ': 'value' },
      body: { full: true },
      cron_expression: '  0   2 * *  * ',
    });
    expect(result).toEqual({
      name: 'nightly_backup-1',
      url: 'https://example.com/hook',
      method: 'POST',
      headers: { 'X-Token': 'abc' },
      body: '{"full":true}',
      cron_expression: '0 2 * * *',
      notify_on_failure: false,
      time_zone: 'UTC',
      response_rules: null,
      timeout_seconds: null,
      auto_pause_after: null,
      alert_after_failures: 1,
      certificate_alert_days: 14,
      delivery: 'at_least_once',
      tags: [],
      retry: DEFAULT_RETRY_POLICY,
      identity_token: null,
      callback_url: null,
      every_seconds: null,
      run_at: null,
      starts_at: null,
      ends_at: null,
      jitter_seconds: 0,
      overlap: 'allow',
      catch_up: 'latest',
      catch_up_window_seconds: null,
    });
    expect(jobDefinitionSchema.parse(valid)).toMatchObject({ method: 'GET', headers: {}, body: '', notify_on_failure: false });
  });

  it('reports each bad field once, with the spec message, by path', () => {
    const result = jobDefinitionSchema.safeParse({ name: '', url: 'example', cron_expression: '* * * *', colour: 'red' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', JOB_MESSAGES.nameRequired],
      ['url', JOB_MESSAGES.urlInvalid],
      ['cron_expression', 'Cron expression must have 5 fields, or 6 with seconds first'],
      ['colour', JOB_MESSAGES.unknownField],
    ]);
  });

  it('warns about plain HTTP without refusing it', () => {
    expect(urlWarning('http://example.com')).toBe('Using HTTP is not secure - consider using HTTPS instead');
    expect(urlWarning('https://example.com')).toBeNull();
    expect(jobDefinitionSchema.safeParse({ ...valid, url: 'http://example.com' }).success).toBe(true);
  });

  it('reads the logs limit from the query string', () => {
    expect(jobLogsQuerySchema.parse({})).toEqual({ limit: 50 });
    expect(jobLogsQuerySchema.parse({ limit: '7' })).toEqual({ limit: 7 });
    expect(jobLogsQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(jobLogsQuerySchema.safeParse({ page: '2' }).success).toBe(false);
  });
});

describe('schedule forms', () => {
  const base = { name: 'a-job', url: 'https://example.com/hook' };
  const issues = (definition: Record<string, unknown>) => {
    const result = jobDefinitionSchema.safeParse({ ...base, ...definition });
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('takes exactly one of cron_expression, every_seconds and run_at; null is none', () => {
    expect(issues({ every_seconds: 30 })).toEqual([]);
    expect(issues({ cron_expression: null, run_at: '2030-01-01T09:00:00+01:00' })).toEqual([]);
    expect(jobDefinitionSchema.parse({ ...base, run_at: '2030-01-01T09:00:00+01:00' }).run_at).toBe('2030-01-01T08:00:00.000Z');
    expect(issues({})).toEqual([['cron_expression', 'Cron expression is required']]);
    expect(issues({ cron_expression: '* * * * *', every_seconds: 30, run_at: '2030-01-01T00:00:00Z' })).toEqual([
      ['every_seconds', JOB_MESSAGES.scheduleOne],
      ['run_at', JOB_MESSAGES.scheduleOne],
    ]);
  });

  it('checks the window, the jitter and the policies', () => {
    expect(issues({ every_seconds: 30, starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' })).toEqual([['ends_at', JOB_MESSAGES.endsBeforeStart]]);
    expect(issues({ run_at: '2030-01-01T00:00:00Z', ends_at: '2030-01-02T00:00:00Z' })).toEqual([['ends_at', JOB_MESSAGES.windowWithRunAt]]);
    expect(issues({ every_seconds: 30, starts_at: '2030-01-01 00:00' })).toEqual([['starts_at', JOB_MESSAGES.instant('starts_at')]]);
    expect(issues({ every_seconds: 30, jitter_seconds: -1 })).toEqual([['jitter_seconds', JOB_MESSAGES.jitter]]);
    expect(issues({ every_seconds: 30, catch_up: 'all_within' })).toEqual([['catch_up_window_seconds', JOB_MESSAGES.catchUpWindow]]);
    expect(issues({ every_seconds: 30, catch_up: 'all_within', catch_up_window_seconds: 600, overlap: 'skip' })).toEqual([]);
    expect(issues({ every_seconds: 30, catch_up_window_seconds: 600 })).toEqual([['catch_up_window_seconds', JOB_MESSAGES.catchUpWindowUnused]]);
  });
});
