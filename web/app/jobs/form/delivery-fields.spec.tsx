import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { DashboardStats, Job } from '@cronbeam/shared/jobs/job-types';
import { DEFAULT_RETRY_POLICY, RETRY_MESSAGES } from '@cronbeam/shared/jobs/retry-policy';
import { CALLBACK_MESSAGES } from '@cronbeam/shared/jobs/run-callbacks';
import { useDashboard } from '../../dashboard/dashboard-store';
import { useSession } from '../../session/session-store';
import { savedJob } from '../../test-support/saved-job';
import { installFakeApi, type FakeCall } from '../../test-support/fake-api';
import CreateJobSection from '../create-job-section';
import { JobForm } from './job-form';

const created = { job_id: 'job-1', name: 'nightly-report', status: 'scheduled', next_run_at: '2026-06-01T12:15:00.000Z' };

const saved = savedJob({
  job_id: 'job-7',
  name: 'signed-job',
  url: 'https://example.com/run',
  method: 'POST',
  cron_expression: '0 * * * *',
  retry: { attempts: 6, initial_backoff_seconds: 20, max_backoff_seconds: 900, retry_on: ['timeout', '429'], retry_on_status: [408, 409] },
  identity_token: { audience: 'https://api.example.com' },
  callback_url: 'https://hooks.example.com/done',
  notify_on_failure: false,
  next_run_at: '2026-06-01T13:00:00.000Z',
  created_at: '2026-06-01T12:00:00.000Z',
  updated_at: '2026-06-01T12:00:00.000Z',
});

function renderForm(job?: Job) {
  const onSaved = jest.fn();
  render(
    <MemoryRouter>
      <JobForm job={job} onSaved={onSaved} />
    </MemoryRouter>,
  );
  return onSaved;
}

const submit = (label = 'Create Job') => fireEvent.click(screen.getByRole('button', { name: label }));
/** The calls of saving (probe and save), without the check of the URL that leaving its field makes. */
const saving = (calls: FakeCall[]) => calls.filter((c) => c.path !== '/jobs/target-check');
const openPolicies = () => fireEvent.click(screen.getByText('Retries, signed requests and run callback'));

async function fillRequired() {
  await userEvent.type(screen.getByLabelText('Job Name'), 'policy-job');
  await userEvent.type(screen.getByLabelText('URL'), 'https://example.com/run');
}

describe('job form: retries, timeout, signed requests and run callback', () => {
  beforeEach(() => {
    useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 });
    useDashboard.setState({ stats: null });
  });

  it('sends the retry policy, the identity token and the callback URL chosen', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await fillRequired();
    openPolicies();
    // The plan default to start from.
    expect(screen.getByLabelText('Retries after a failed run')).toHaveValue(3);
    expect(screen.getByLabelText('Longest wait (seconds)')).toHaveValue(3600);
    expect(screen.getByLabelText('Network errors')).toBeChecked();
    expect(screen.getByLabelText('429 Too Many Requests')).not.toBeChecked();

    fireEvent.change(screen.getByLabelText('Retries after a failed run'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('First wait (seconds)'), { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText('Longest wait (seconds)'), { target: { value: '600' } });
    fireEvent.click(screen.getByLabelText('429 Too Many Requests'));
    fireEvent.click(screen.getByLabelText('Network errors'));
    await userEvent.type(screen.getByLabelText('Other statuses to retry (4xx)'), '409 408');
    expect(screen.queryByLabelText('Token audience')).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText(/Send an identity token/));
    await userEvent.type(screen.getByLabelText('Token audience'), 'https://api.example.com');
    await userEvent.type(screen.getByLabelText('Run callback (optional)'), 'https://hooks.example.com/done');
    submit();

    await waitFor(() => expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'POST /jobs']));
    expect(saving(calls)[1]!.body).toMatchObject({
      retry: { attempts: 5, initial_backoff_seconds: 10, max_backoff_seconds: 600, retry_on: ['timeout', '5xx', '429'], retry_on_status: [409, 408] },
      identity_token: { audience: 'https://api.example.com' },
      callback_url: 'https://hooks.example.com/done',
    });
  });

  it('sends the plan default, no identity token and no callback when nothing is chosen', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await fillRequired();
    submit();
    await waitFor(() => expect(saving(calls)).toHaveLength(2));
    expect(saving(calls)[1]!.body).toMatchObject({ retry: DEFAULT_RETRY_POLICY, identity_token: null, callback_url: null });
  });

  it('holds the retry policy and the callback URL to the shared rules before sending anything', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'POST /jobs': { status: 201, body: created } });
    renderForm();
    await fillRequired();
    openPolicies();
    const attempts = screen.getByLabelText('Retries after a failed run');
    fireEvent.change(attempts, { target: { value: '11' } });
    fireEvent.blur(attempts);
    expect(await screen.findByText(RETRY_MESSAGES.attempts)).toBeInTheDocument();
    fireEvent.change(attempts, { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('First wait (seconds)'), { target: { value: '60' } });
    const longest = screen.getByLabelText('Longest wait (seconds)');
    fireEvent.change(longest, { target: { value: '30' } });
    fireEvent.blur(longest);
    expect(await screen.findByText(RETRY_MESSAGES.backoffOrder)).toBeInTheDocument();
    fireEvent.change(longest, { target: { value: '120' } });
    const statuses = screen.getByLabelText('Other statuses to retry (4xx)');
    fireEvent.change(statuses, { target: { value: '409, 503' } });
    fireEvent.blur(statuses);
    expect(await screen.findByText(RETRY_MESSAGES.retryOnStatus)).toBeInTheDocument();
    fireEvent.change(statuses, { target: { value: '409' } });

    const callback = screen.getByLabelText('Run callback (optional)');
    fireEvent.change(callback, { target: { value: 'ftp://hooks.example.com/' } });
    fireEvent.blur(callback);
    expect(await screen.findByText(CALLBACK_MESSAGES.url)).toBeInTheDocument();
    submit();
    expect(await screen.findByText('Please fix the errors before submitting')).toBeInTheDocument();
    expect(saving(calls)).toHaveLength(0);
  });

  it("shows the server's refusal of a callback URL beside the field, with the group open", async () => {
    installFakeApi({
      'GET /jobs': { status: 200, body: [] },
      'POST /jobs': { status: 422, body: { detail: [{ loc: ['body', 'callback_url'], msg: CALLBACK_MESSAGES.privateTarget, type: 'value_error' }] } },
    });
    renderForm();
    await fillRequired();
    openPolicies();
    await userEvent.type(screen.getByLabelText('Run callback (optional)'), 'http://10.0.0.5/hook');
    submit();
    const message = await screen.findByText(CALLBACK_MESSAGES.privateTarget);
    expect(message).toHaveAttribute('id', 'job-callback_url-error');
    expect(message.closest('details')).toHaveAttribute('open');
  });

  it("states the plan's longest timeout beside the field", async () => {
    installFakeApi({});
    useDashboard.setState({ stats: { plan: 'basic' } as DashboardStats });
    renderForm();
    expect(screen.getByLabelText('Timeout (seconds)')).toHaveAccessibleDescription('Empty: 30 s. Your basic plan allows up to 300 s.');
    act(() => useDashboard.setState({ stats: { plan: 'pro' } as DashboardStats }));
    expect(screen.getByLabelText('Timeout (seconds)')).toHaveAccessibleDescription('Empty: 30 s. Your pro plan allows up to 1800 s.');
  });

  it("shows a saved job's policies and sends them back unchanged", async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [] }, 'PUT /jobs/job-7': { status: 200, body: saved } });
    renderForm(saved);
    expect(screen.getByText('Retries, signed requests and run callback').closest('details')).toHaveAttribute('open');
    expect(screen.getByLabelText('Retries after a failed run')).toHaveValue(6);
    expect(screen.getByLabelText('Other statuses to retry (4xx)')).toHaveValue('408, 409');
    expect(screen.getByLabelText('Token audience')).toHaveValue('https://api.example.com');
    expect(screen.getByLabelText('Run callback (optional)')).toHaveValue('https://hooks.example.com/done');
    submit('Save Changes');
    await waitFor(() => expect(saving(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /jobs', 'PUT /jobs/job-7']));
    expect(saving(calls)[1]!.body).toMatchObject({ retry: saved.retry, identity_token: saved.identity_token, callback_url: saved.callback_url });

    // Clearing the callback and the token turns them off.
    fireEvent.change(screen.getByLabelText('Run callback (optional)'), { target: { value: '' } });
    fireEvent.click(screen.getByLabelText(/Send an identity token/));
    submit('Save Changes');
    await waitFor(() => expect(saving(calls)).toHaveLength(4));
    expect(saving(calls)[3]!.body).toMatchObject({ identity_token: null, callback_url: null });
  });

  it("shows a saved job's latest callback deliveries on request", async () => {
    const deliveries = [
      { delivery_id: 'd2', run_id: 'abcdef12-0000-4000-8000-000000000000', attempt: 2, status: 'delivered', response_code: 200, error: null, created_at: '2026-06-01T13:00:05.000Z' },
      { delivery_id: 'd1', run_id: 'abcdef12-0000-4000-8000-000000000000', attempt: 1, status: 'failed', response_code: 503, error: 'HTTP 503', created_at: '2026-06-01T13:00:01.000Z' },
    ];
    const { calls } = installFakeApi({ 'GET /jobs/job-7/callback-deliveries': { status: 200, body: { deliveries } } });
    renderForm(saved);
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Show recent deliveries' }));
    const table = await screen.findByRole('table', { name: 'Callback deliveries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('abcdef122Delivered (HTTP 200)'),
      expect.stringContaining('abcdef121Failed: HTTP 503'),
    ]);
    // A job without a callback has no log to show.
    installFakeApi({});
    renderForm({ ...saved, job_id: 'job-8', callback_url: null });
    expect(screen.getAllByRole('button', { name: /deliveries/ })).toHaveLength(1);
  });

  it("rotates a saved job's signing secret with the overlap chosen and shows the new one once", async () => {
    const until = '2026-06-08T12:00:00.000Z';
    const { calls } = installFakeApi({ 'POST /jobs/job-7/signing-secret': { status: 200, body: { signing_secret: 'cbsig_new-secret', previous_valid_until: until } } });
    renderForm(saved);
    expect(screen.queryByTestId('new-signing-secret')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('The current secret keeps signing'), { target: { value: String(7 * 86_400) } });
    fireEvent.click(screen.getByRole('button', { name: 'Rotate signing secret' }));
    const shown = await screen.findByTestId('new-signing-secret');
    expect(calls.map((c) => [`${c.method} ${c.path}`, c.body])).toEqual([['POST /jobs/job-7/signing-secret', { overlap_seconds: 604_800 }]]);
    expect(within(shown).getByText('cbsig_new-secret')).toBeInTheDocument();
    expect(shown.textContent).toContain('shown once');
    expect(shown.textContent).toContain('The previous one signs too until 08 Jun 2026, 12:00:00 UTC');
    expect(within(shown).getByRole('button', { name: 'Copy signing secret' })).toBeInTheDocument();
  });

  it('offers no rotation before the job exists, and shows the secret once after creating it', async () => {
    // jsdom lays nothing out and has no scrollIntoView; the section scrolls its result box into view.
    Element.prototype.scrollIntoView = jest.fn();
    installFakeApi({
      'GET /jobs': { status: 200, body: [] },
      'POST /jobs': { status: 201, body: { ...created, signing_secret: 'cbsig_first-secret' } },
    });
    render(
      <MemoryRouter>
        <CreateJobSection />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('button', { name: 'Rotate signing secret' })).not.toBeInTheDocument();
    await fillRequired();
    submit();
    expect(await screen.findByTestId('created-signing-secret')).toHaveTextContent('cbsig_first-secret');
    expect(screen.getByRole('button', { name: 'Copy signing secret' })).toBeInTheDocument();
  });
});
