import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { JOB_MESSAGES } from '@cronbeam/shared/jobs/job-rules';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import { useSession } from '../../session/session-store';
import { savedJob } from '../../test-support/saved-job';
import { installFakeApi, type FakeCall } from '../../test-support/fake-api';
import { JobForm } from './job-form';

const created = { job_id: 'job-1', name: 'interval-job', status: 'scheduled', next_run_at: '2026-06-01T12:15:00.000Z' };

const intervalJob = savedJob({
  job_id: 'job-9',
  name: 'interval-job',
  url: 'https://example.com/run',
  cron_expression: null,
  every_seconds: 900,
  starts_at: '2026-12-01T09:00:00.000Z',
  jitter_seconds: 30,
  overlap: 'skip',
  catch_up: 'all_within',
  catch_up_window_seconds: 7200,
  notify_on_failure: false,
  next_run_at: '2026-12-01T09:00:00.000Z',
  created_at: '2026-06-01T12:00:00.000Z',
  updated_at: '2026-06-01T12:00:00.000Z',
});

function renderForm(job?: Job) {
  render(
    <MemoryRouter>
      <JobForm job={job} onSaved={jest.fn()} />
    </MemoryRouter>,
  );
}

const saving = (calls: FakeCall[]) => calls.filter((c) => c.path !== '/jobs/target-check');
const submit = (label = 'Create Job') => fireEvent.click(screen.getByRole('button', { name: label }));
const kind = () => screen.getByLabelText('Runs');

async function fillRequired() {
  await userEvent.type(screen.getByLabelText('Job Name'), 'interval-job');
  await userEvent.type(screen.getByLabelText('URL'), 'https://example.com/run');
}

describe('job form: schedule forms and policies', () => {
  beforeEach(() => useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 }));

  it('sends an interval instead of a cron expression, and names an empty interval before sending', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await fillRequired();
    expect(screen.getByRole('tablist', { name: 'Schedule input' })).toBeInTheDocument();
    fireEvent.change(kind(), { target: { value: 'every' } });
    // The cron picker gives way to the interval.
    expect(screen.queryByRole('tablist', { name: 'Schedule input' })).not.toBeInTheDocument();
    submit();
    expect(await screen.findByText(JOB_MESSAGES.everySeconds)).toBeInTheDocument();
    expect(saving(calls)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Every (seconds)'), { target: { value: '300' } });
    submit();
    await waitFor(() => expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'POST /jobs']));
    expect(saving(calls)[1]!.body).toMatchObject({ cron_expression: null, every_seconds: 300, run_at: null, jitter_seconds: 0, overlap: 'allow', catch_up: 'latest' });
  });

  it("previews an interval's next runs, its executions in 30 days against the plan's quota, and its jitter offset", async () => {
    const preview = {
      next_runs: ['2030-12-01T09:00:12.000Z', '2030-12-01T09:05:12.000Z'],
      executions_per_30_days: 8640,
      jitter_offset_seconds: 12,
      plan: 'basic',
      execution_quota: 1500,
    };
    const { calls } = installFakeApi({ 'POST /jobs/schedule-preview': { status: 200, body: preview } });
    renderForm();
    await userEvent.type(screen.getByLabelText('Job Name'), 'interval-job');
    // Plain cron is previewed by the picker itself.
    expect(screen.queryByRole('button', { name: 'Preview next runs' })).not.toBeInTheDocument();
    fireEvent.change(kind(), { target: { value: 'every' } });
    fireEvent.change(screen.getByLabelText('Every (seconds)'), { target: { value: '300' } });
    fireEvent.click(screen.getByText('Start, end, jitter, overlap and catch-up'));
    fireEvent.change(screen.getByLabelText('Jitter (seconds)'), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview next runs' }));
    const shown = await screen.findByTestId('schedule-preview');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /jobs/schedule-preview']);
    expect(calls[0]!.body).toMatchObject({ name: 'interval-job', cron_expression: null, every_seconds: 300, run_at: null, jitter_seconds: 30 });
    expect(within(shown).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['01 Dec 2030, 09:00:12 UTC', '01 Dec 2030, 09:05:12 UTC']);
    expect(shown.textContent).toContain('8640 executions in the next 30 days (your basic plan allows 1500 a month); jitter places this job 12 s after each instant.');
  });

  it('sends a one-off run at a UTC time, without a window', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await fillRequired();
    fireEvent.change(kind(), { target: { value: 'once' } });
    fireEvent.click(screen.getByText('Start, end, jitter, overlap and catch-up'));
    expect(screen.queryByLabelText('Starts at (UTC, optional)')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Run at (UTC)'), { target: { value: '2030-12-01T09:30' } });
    submit();
    await waitFor(() => expect(saving(calls)).toHaveLength(2));
    expect(saving(calls)[1]!.body).toMatchObject({ cron_expression: null, every_seconds: null, run_at: '2030-12-01T09:30:00Z', starts_at: null, ends_at: null });
  });

  it('sends the window, jitter, overlap and catch-up chosen, and checks the window against the rules', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await fillRequired();
    fireEvent.click(screen.getByText('Start, end, jitter, overlap and catch-up'));
    fireEvent.change(screen.getByLabelText('Starts at (UTC, optional)'), { target: { value: '2030-12-02T00:00' } });
    const ends = screen.getByLabelText('Ends at (UTC, optional)');
    fireEvent.change(ends, { target: { value: '2030-12-01T00:00' } });
    fireEvent.blur(ends);
    expect(await screen.findByText(JOB_MESSAGES.endsBeforeStart)).toBeInTheDocument();
    fireEvent.change(ends, { target: { value: '2031-01-01T00:00' } });
    fireEvent.change(screen.getByLabelText('Jitter (seconds)'), { target: { value: '45' } });
    fireEvent.change(screen.getByLabelText('When a run is due while the last one is still running'), { target: { value: 'skip' } });
    expect(screen.queryByLabelText('Catch-up window (seconds)')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Runs missed during an outage or a pause'), { target: { value: 'all_within' } });
    fireEvent.change(screen.getByLabelText('Catch-up window (seconds)'), { target: { value: '7200' } });
    submit();
    await waitFor(() => expect(saving(calls)).toHaveLength(2));
    expect(saving(calls)[1]!.body).toMatchObject({
      cron_expression: '*/15 * * * *',
      starts_at: '2030-12-02T00:00:00Z',
      ends_at: '2031-01-01T00:00:00Z',
      jitter_seconds: 45,
      overlap: 'skip',
      catch_up: 'all_within',
      catch_up_window_seconds: 7200,
    });
  });

  it("shows a saved interval job's schedule and policies and sends them back unchanged", async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'PUT /jobs/job-9': { status: 200, body: intervalJob } });
    renderForm(intervalJob);
    expect(kind()).toHaveValue('every');
    expect(screen.getByLabelText('Every (seconds)')).toHaveValue(900);
    expect(screen.getByLabelText('Starts at (UTC, optional)')).toHaveValue('2026-12-01T09:00');
    expect(screen.getByLabelText('Catch-up window (seconds)')).toHaveValue(7200);
    submit('Save Changes');
    await waitFor(() => expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'PUT /jobs/job-9']));
    expect(saving(calls)[1]!.body).toMatchObject({
      cron_expression: null,
      every_seconds: 900,
      run_at: null,
      starts_at: '2026-12-01T09:00:00.000Z',
      jitter_seconds: 30,
      overlap: 'skip',
      catch_up: 'all_within',
      catch_up_window_seconds: 7200,
    });
  });
});
