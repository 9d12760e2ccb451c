import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import type { MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import { useDashboard } from '../dashboard/dashboard-store';
import { useSession } from '../session/session-store';
import { installFakeApi } from '../test-support/fake-api';
import MaintenanceSection from './maintenance-section';
import { MaintenanceWindowForm } from './maintenance-window-form';

const job = { job_id: 'j1', name: 'billing-export', status: 'success', tags: [] } as unknown as Job;

const recurring: MaintenanceWindow = {
  window_id: 'w1',
  name: 'Sunday upgrades',
  job_id: null,
  tag: 'billing',
  starts_at: null,
  ends_at: null,
  cron_expression: '0 2 * * SUN',
  duration_minutes: 90,
  time_zone: 'Europe/Berlin',
  pause_runs: true,
  active: false,
  created_at: '2026-11-23T00:00:00.000Z',
};

describe('maintenance windows', () => {
  beforeEach(() => {
    useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 });
    useDashboard.setState({ jobs: [job] });
  });

  it('lists the windows and deletes one after confirmation', async () => {
    const { calls } = installFakeApi({ 'GET /maintenance-windows': { status: 200, body: [recurring] }, 'DELETE /maintenance-windows/w1': { status: 200, body: { message: 'Maintenance window deleted' } } });
    render(<MaintenanceSection />);
    const table = await screen.findByRole('table', { name: 'Maintenance windows' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('jobs tagged billing')).toBeInTheDocument();
    expect(within(row).getByText('0 2 * * SUN for 90 min (Europe/Berlin)')).toBeInTheDocument();
    expect(within(row).getByText('paused')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Delete Sunday upgrades' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Window' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Maintenance windows' })).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE' && c.path.endsWith('/maintenance-windows/w1'))).toBe(true);
  });

  it('creates a recurring window for one job, sending only the recurring fields', async () => {
    const { calls } = installFakeApi({ 'POST /maintenance-windows': { status: 200, body: recurring } });
    const onSaved = jest.fn();
    render(<MaintenanceWindowForm jobs={[job]} onSaved={onSaved} onCancel={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Sunday upgrades');
    await userEvent.selectOptions(screen.getByLabelText('Covers'), 'job');
    await userEvent.selectOptions(screen.getByLabelText('Job'), 'j1');
    await userEvent.click(screen.getByRole('radio', { name: 'Recurring' }));
    await userEvent.type(screen.getByLabelText('Starts at (cron expression)'), '0 2 * * SUN');
    await userEvent.clear(screen.getByLabelText('Lasts (minutes)'));
    await userEvent.type(screen.getByLabelText('Lasts (minutes)'), '90');
    await userEvent.clear(screen.getByLabelText('Time zone'));
    await userEvent.type(screen.getByLabelText('Time zone'), 'Europe/Berlin');
    await userEvent.click(screen.getByRole('checkbox', { name: /Also pause runs/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Window' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(recurring));
    expect(calls[0]!.body).toEqual({
      name: 'Sunday upgrades',
      job_id: 'j1',
      tag: null,
      starts_at: null,
      ends_at: null,
      cron_expression: '0 2 * * SUN',
      duration_minutes: 90,
      time_zone: 'Europe/Berlin',
      pause_runs: true,
    });
  });

  it('shows the server’s message beside the field it names', async () => {
    installFakeApi({ 'POST /maintenance-windows': { status: 422, body: { detail: [{ loc: ['body', 'ends_at'], msg: 'ends_at must be after starts_at', type: 'custom' }] } } });
    render(<MaintenanceWindowForm jobs={[job]} onSaved={() => undefined} onCancel={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Name'), 'deploy');
    await userEvent.click(screen.getByRole('button', { name: 'Create Window' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('ends_at must be after starts_at');
    expect(screen.getByLabelText('Ends')).toHaveAttribute('aria-invalid', 'true');
  });
});
