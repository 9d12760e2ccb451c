import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { useSession } from '../../session/session-store';
import { savedJob } from '../../test-support/saved-job';
import { installFakeApi } from '../../test-support/fake-api';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import { JobForm } from './job-form';
import { definitionFromValues, valuesFromJob } from './job-form-model';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';

const created = { job_id: 'job-1', name: 'nightly-report', status: 'scheduled', next_run_at: '2026-06-01T12:15:00.000Z' };

function renderForm(onSaved = jest.fn()) {
  render(
    <MemoryRouter>
      <JobForm onSaved={onSaved} />
    </MemoryRouter>,
  );
  return onSaved;
}

const name = () => screen.getByLabelText('Job Name');
const url = () => screen.getByLabelText('URL');
const submit = () => screen.getByRole('button', { name: 'Create Job' });
/** The calls of saving (probe and save), without the check of the URL that leaving its field makes. */
const saving = <T extends { path: string }>(calls: T[]) => calls.filter((c) => c.path !== '/jobs/target-check');

describe('job form rules', () => {
  beforeEach(() => useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 }));

  it('checks the name on leaving the field', async () => {
    renderForm();
    fireEvent.blur(name());
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await userEvent.type(name(), 'nightly report!');
    fireEvent.blur(name());
    expect(await screen.findByText('Name can only contain letters, numbers, hyphens (-), and underscores (_)')).toBeInTheDocument();
    await userEvent.clear(name());
    await userEvent.type(name(), 'nightly_report-2');
    fireEvent.blur(name());
    await waitFor(() => expect(screen.queryByText(/Name can only contain/)).not.toBeInTheDocument());
  });

  it('checks the URL on leaving the field and warns about plain HTTP', async () => {
    renderForm();
    fireEvent.blur(url());
    expect(await screen.findByText('URL is required')).toBeInTheDocument();
    await userEvent.type(url(), 'not a url');
    fireEvent.blur(url());
    expect(await screen.findByText('Please enter a valid URL')).toBeInTheDocument();
    await userEvent.clear(url());
    await userEvent.type(url(), 'http://example.com/hook');
    fireEvent.blur(url());
    expect(await screen.findByText('Using HTTP is not secure - consider using HTTPS instead')).toBeInTheDocument();
  });

  it('checks the cron expression: required, 5 fields, ranges', async () => {
    renderForm();
    fireEvent.click(screen.getByRole('tab', { name: 'Expression' }));
    const cron = screen.getByLabelText('Cron expression');
    fireEvent.change(cron, { target: { value: '' } });
    fireEvent.blur(cron);
    expect(await screen.findByText('Cron expression is required')).toBeInTheDocument();
    fireEvent.change(cron, { target: { value: '* * * *' } });
    fireEvent.blur(cron);
    expect(await screen.findByText('Cron expression must have 5 fields, or 6 with seconds first')).toBeInTheDocument();
    fireEvent.change(cron, { target: { value: '0 24 * * *' } });
    fireEvent.blur(cron);
    expect(await screen.findByText('Hour must be between 0 and 23')).toBeInTheDocument();
  });

  it('warns, without blocking, about a body that is not JSON', async () => {
    renderForm();
    const body = screen.getByLabelText('Request Body (optional, JSON)');
    fireEvent.change(body, { target: { value: '{"ok": tru' } });
    expect(screen.getByText('This body is not valid JSON; it will be sent as plain text')).toBeInTheDocument();
    fireEvent.change(body, { target: { value: '{"ok": true}' } });
    expect(screen.queryByText(/not valid JSON/)).not.toBeInTheDocument();
  });

  it('stops a submission with errors with the spec message and sends nothing', async () => {
    const { calls } = installFakeApi({});
    renderForm();
    fireEvent.click(submit());
    expect(await screen.findByText('Please fix the errors before submitting')).toBeInTheDocument();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('URL is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('probes the server, then sends trimmed values without empty header rows', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    const onSaved = renderForm();
    await userEvent.type(name(), '  nightly-report ');
    await userEvent.type(url(), 'https://example.com/run');
    fireEvent.click(screen.getByRole('button', { name: '+ Add header' }));
    fireEvent.click(screen.getByRole('button', { name: '+ Add header' }));
    fireEvent.click(screen.getByRole('button', { name: '+ Add header' }));
    await userEvent.type(screen.getByLabelText('Header 1 name'), ' X-Token ');
    await userEvent.type(screen.getByLabelText('Header 1 value'), ' abc ');
    await userEvent.type(screen.getByLabelText('Header 2 name'), 'X-Empty');
    fireEvent.click(screen.getByRole('button', { name: 'Remove header 3' }));
    expect(screen.queryByLabelText('Header 3 name')).not.toBeInTheDocument();
    fireEvent.click(submit());
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(created));
    expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'POST /jobs']);
    expect(saving(calls)[1].body).toEqual({
      name: 'nightly-report',
      url: 'https://example.com/run',
      method: 'GET',
      headers: { 'X-Token': 'abc' },
      body: '',
      cron_expression: '*/15 * * * *',
      time_zone: 'UTC',
      notify_on_failure: false,
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
  });

  it('keeps a job’s delivery and retry policy when it is edited, and sends the one chosen', async () => {
    const job = savedJob({
      ...created,
      status: 'scheduled',
      url: 'https://example.com/run',
      method: 'POST',
      cron_expression: '0 * * * *',
      certificate_alert_days: null,
      certificate_expires_at: '2026-12-01T00:00:00.000Z',
      delivery: 'at_most_once',
      tags: ['prod'],
      retry: { ...DEFAULT_RETRY_POLICY, attempts: 7, retry_on_status: [409] },
      identity_token: { audience: 'https://api.example.com' },
      callback_url: 'https://hooks.example.com/done',
      notify_on_failure: false,
      created_at: '2026-06-01T12:00:00.000Z',
      updated_at: '2026-06-01T12:00:00.000Z',
    });
    const values = valuesFromJob(job);
    expect(definitionFromValues(values).delivery).toBe('at_most_once');
    expect(definitionFromValues(values).retry).toEqual(job.retry);
    expect(definitionFromValues(values).identity_token).toEqual(job.identity_token);
    expect(definitionFromValues(values).callback_url).toBe('https://hooks.example.com/done');
    // Certificate alerts turned off stay off through an edit (a PUT without the field would restore the default 14).
    expect(definitionFromValues(values).certificate_alert_days).toBeNull();
    expect(definitionFromValues({ ...values, certificate_alert_days: '30' }).certificate_alert_days).toBe(30);
    expect(definitionFromValues({ ...values, delivery: 'at_least_once' }).delivery).toBe('at_least_once');
    // Tags are kept through an edit too (a PUT without them would clear them).
    expect(definitionFromValues(values).tags).toEqual(['prod']);
    expect(definitionFromValues({ ...values, tags: 'prod, Billing  ops' }).tags).toEqual(['prod', 'Billing', 'ops']);
  });

  it('sends response rules, timeout and auto-pause, and shows the rules’ message for a bad status list', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await userEvent.type(name(), 'checked-job');
    await userEvent.type(url(), 'https://example.com/health');
    fireEvent.click(screen.getByText('Response rules and limits'));
    await userEvent.type(screen.getByLabelText('Expected status codes'), '200-299, 99');
    fireEvent.click(submit());
    expect(await screen.findByText('expected_status must list status codes or ranges from 100 to 599, e.g. "200-299, 304"')).toBeInTheDocument();
    expect(saving(calls)).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Expected status codes'));
    await userEvent.type(screen.getByLabelText('Expected status codes'), '200, 304');
    await userEvent.type(screen.getByLabelText('JSON path'), '$.status');
    await userEvent.type(screen.getByLabelText('JSON value at the path'), '"up"');
    await userEvent.type(screen.getByLabelText('Timeout (seconds)'), '5');
    await userEvent.type(screen.getByLabelText('Pause after failed runs in a row'), '3');
    fireEvent.click(submit());
    await waitFor(() => expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'POST /jobs']));
    expect(saving(calls)[1].body).toMatchObject({
      response_rules: { expected_status: '200, 304', body_contains: null, json_path: '$.status', json_equals: 'up' },
      timeout_seconds: 5,
      auto_pause_after: 3,
    });
  });

  it('asks how many failed runs in a row to wait for once alerts are on, checks it and sends it', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await userEvent.type(name(), 'flaky-job');
    await userEvent.type(url(), 'https://example.com/flaky');
    expect(screen.queryByLabelText('Alert after failed runs in a row')).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('Alert me when a run fails'));
    const threshold = screen.getByLabelText('Alert after failed runs in a row');
    expect(threshold).toHaveValue(1);
    fireEvent.change(threshold, { target: { value: '0' } });
    fireEvent.blur(threshold);
    expect(await screen.findByText('alert_after_failures must be a whole number from 1 to 1000')).toBeInTheDocument();
    fireEvent.change(threshold, { target: { value: '3' } });
    fireEvent.click(submit());
    await waitFor(() => expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'POST /jobs']));
    expect(saving(calls)[1].body).toMatchObject({ notify_on_failure: true, alert_after_failures: 3 });
    expect(valuesFromJob({ ...(saving(calls)[1].body as Job), alert_after_failures: 5 }).alert_after_failures).toBe('5');
  });

  it('reads the schedule in the chosen time zone: previews show local and UTC times, the zone is sent', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await userEvent.type(name(), 'berlin-report');
    await userEvent.type(url(), 'https://example.com/run');
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'Europe/Berlin' } });
    expect(screen.getByText('Schedule (Europe/Berlin)')).toBeInTheDocument();
    const local = screen.getAllByTestId('run-local');
    expect(local).toHaveLength(5);
    // Each row: the Berlin clock time with its abbreviation, then the same instant in UTC.
    for (const row of local) {
      expect(row.textContent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} (GMT\+1|GMT\+2|CET|CEST)$/);
      expect(row.parentElement!.textContent).toMatch(/\(.+ UTC\)$/);
    }
    fireEvent.click(submit());
    await waitFor(() => expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'POST /jobs']));
    expect(saving(calls)[1].body).toMatchObject({ name: 'berlin-report', time_zone: 'Europe/Berlin' });
  });

  it('opens the Job Quota Exceeded modal at the plan limit', async () => {
    const detail = { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 };
    installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 403, body: { detail } } });
    renderForm();
    await userEvent.type(name(), 'third');
    await userEvent.type(url(), 'https://example.com');
    fireEvent.click(submit());
    const dialog = await screen.findByRole('dialog', { name: 'Job Quota Exceeded' });
    expect(dialog).toHaveTextContent('free');
    expect(dialog).toHaveTextContent('2 / 2');
    expect(screen.getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/pricing');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the server field messages of a 422 next to the fields', async () => {
    const detail = [{ loc: ['body', 'name'], msg: 'A job with this name already exists', type: 'custom' }];
    installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 422, body: { detail } } });
    renderForm();
    await userEvent.type(name(), 'taken');
    await userEvent.type(url(), 'https://example.com');
    fireEvent.click(submit());
    expect(await screen.findByText('A job with this name already exists')).toBeInTheDocument();
  });

  it('traps focus in a modal and closes it with Escape', async () => {
    const detail = { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 };
    installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 403, body: { detail } } });
    renderForm();
    await userEvent.type(name(), 'third');
    await userEvent.type(url(), 'https://example.com');
    fireEvent.click(submit());
    await screen.findByRole('dialog');
    expect(screen.getByRole('button', { name: 'Close dialog' })).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('link', { name: 'View Plans' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Close dialog' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('job form server probe', () => {
  beforeEach(() => {
    useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 });
    jest.useFakeTimers();
  });
  afterEach(() => jest.useRealTimers());

  it("gives up after 4 attempts with 'Cannot reach server. Please try again later.'", async () => {
    const { calls } = installFakeApi({ 'GET /jobs': 'network-error' });
    renderForm();
    fireEvent.change(name(), { target: { value: 'ok' } });
    fireEvent.change(url(), { target: { value: 'https://example.com' } });
    fireEvent.click(submit());
    for (let i = 0; i < 3; i += 1) await act(() => jest.advanceTimersByTimeAsync(8000));
    expect(await screen.findByText('Cannot reach server. Please try again later.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/jobs')).toHaveLength(4);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
