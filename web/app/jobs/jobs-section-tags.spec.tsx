import type { Job } from '@cronbeam/shared/jobs/job-types';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { useDashboard } from '../dashboard/dashboard-store';
import MonitorsSection from '../monitors/monitors-section';
import { useMonitors } from '../monitors/monitors-store';
import { useSession } from '../session/session-store';
import { installFakeApi } from '../test-support/fake-api';
import { savedJob } from '../test-support/saved-job';
import { Toasts } from '../ui/toasts';
import JobsSection from './jobs-section';

function job(name: string, tags: string[], status: Job['status'] = 'scheduled'): Job {
  return savedJob({ job_id: `00000000-0000-4000-8000-${name.padStart(12, '0')}`, name, url: `https://example.com/${name}`, tags, status });
}

function monitor(name: string, tags: string[]): Monitor {
  return {
    monitor_id: `m-${name}`,
    name,
    ping_url: `http://localhost/ping/${name}`,
    period_seconds: 3600,
    cron_expression: null,
    time_zone: 'UTC',
    grace_seconds: 300,
    alert_after_misses: 1,
    channel_ids: null,
    tags,
    status: 'up',
    last_ping_at: null,
    last_duration_ms: null,
    due_at: null,
    created_at: '2026-11-23T00:00:00.000Z',
  };
}

const rowNames = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((row) => row.querySelector('.name-cell, td.strong')?.firstChild?.textContent);

describe('lists by tag: the filter and the actions on every tagged item', () => {
  beforeEach(() => useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 }));

  it('jobs: filters by a tag, shows each job its tags, and pauses all of one tag through the bulk action', async () => {
    const jobs = [job('billing-sync', ['prod', 'billing']), job('nightly', ['prod']), job('scratch', [])];
    const { calls } = installFakeApi({
      'POST /jobs/bulk-action': { status: 200, body: { action: 'pause', tag: 'prod', count: 2, jobs: jobs.slice(0, 2).map((j) => ({ ...j, status: 'paused' })) } },
      'GET /jobs': { status: 200, body: jobs.map((j) => (j.tags.includes('prod') ? { ...j, status: 'paused' } : j)) },
      'GET /dashboard': { status: 200, body: { total_jobs: 3, active_jobs: 1, paused_jobs: 2, failed_jobs: 0, runs_today: 0, success_rate: null } },
    });
    useDashboard.setState({ jobs, loaded: true, loading: false, search: '' });
    render(
      <MemoryRouter>
        <JobsSection />
      </MemoryRouter>,
    );
    const table = screen.getByRole('table', { name: 'Cron jobs' });
    expect(rowNames(table)).toEqual(['billing-sync', 'nightly', 'scratch']);
    expect(within(table).getAllByLabelText('Tags')[0]).toHaveTextContent('prodbilling');

    const filter = screen.getByLabelText('Tag');
    expect(within(filter).getAllByRole('option').map((o) => o.textContent)).toEqual(['All tags', 'billing', 'prod']);
    await userEvent.selectOptions(filter, 'prod');
    expect(rowNames(table)).toEqual(['billing-sync', 'nightly']);
    const actions = screen.getByRole('group', { name: 'Actions on all jobs tagged prod' });
    expect(actions).toHaveTextContent('2 jobs tagged prod');

    await userEvent.click(within(actions).getByRole('button', { name: 'Pause all' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'GET' && c.path === '/jobs')).toBe(true));
    expect(calls.filter((c) => c.path === '/jobs/bulk-action').map((c) => c.body)).toEqual([{ action: 'pause', tag: 'prod' }]);
    await waitFor(() => expect(useDashboard.getState().jobs.filter((j) => j.status === 'paused').map((j) => j.name)).toEqual(['billing-sync', 'nightly']));
  });

  it('jobs: deleting all of a tag asks first, then sends one bulk delete and clears the filter', async () => {
    const jobs = [job('a-job', ['old']), job('b-job', ['keep'])];
    const { calls } = installFakeApi({
      'POST /jobs/bulk-action': { status: 200, body: { action: 'delete', tag: 'old', count: 1, jobs: [jobs[0]] } },
      'GET /jobs': { status: 200, body: [jobs[1]] },
      'GET /dashboard': { status: 200, body: { total_jobs: 1, active_jobs: 1, paused_jobs: 0, failed_jobs: 0, runs_today: 0, success_rate: null } },
    });
    useDashboard.setState({ jobs, loaded: true, loading: false, search: '' });
    render(
      <MemoryRouter>
        <JobsSection />
      </MemoryRouter>,
    );
    await userEvent.selectOptions(screen.getByLabelText('Tag'), 'old');
    await userEvent.click(screen.getByRole('button', { name: 'Delete all' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete all jobs tagged old' });
    expect(calls.filter((c) => c.path === '/jobs/bulk-action')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete 1 job' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === '/jobs/bulk-action').map((c) => c.body)).toEqual([{ action: 'delete', tag: 'old' }]);
    await waitFor(() => expect(screen.getByLabelText('Tag')).toHaveValue(''));
    await waitFor(() => expect(rowNames(screen.getByRole('table', { name: 'Cron jobs' }))).toEqual(['b-job']));
  });

  it('monitors: filters by a tag and resumes all of it; a refused action says why and changes nothing', async () => {
    const monitors = [monitor('db-backup', ['prod']), monitor('lab', ['lab'])];
    let refuse = true;
    const { calls } = installFakeApi({
      'GET /monitors': { status: 200, body: monitors },
      'GET /alert-channels': { status: 200, body: [] },
      'GET /dashboard': { status: 200, body: { total_jobs: 0, active_jobs: 0, paused_jobs: 0, failed_jobs: 0, runs_today: 0, success_rate: null } },
      'GET /jobs': { status: 200, body: [] },
      'POST /monitors/bulk-action': () => (refuse ? { status: 422, body: { detail: 'tag: Invalid tag' } } : { status: 200, body: { action: 'resume', tag: 'prod', count: 1, monitors: [monitors[0]] } }),
    });
    useMonitors.setState({ monitors: [], loaded: false });
    render(
      <MemoryRouter>
        <MonitorsSection />
        <Toasts />
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Monitors' });
    await userEvent.selectOptions(screen.getByLabelText('Tag'), 'prod');
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.querySelector('td')?.firstChild?.textContent)).toEqual(['db-backup']);
    await userEvent.click(screen.getByRole('button', { name: 'Resume all' }));
    expect(await screen.findByText("Failed to resume the monitors tagged 'prod': tag: Invalid tag")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/monitors/bulk-action')).toHaveLength(1);
    expect(screen.getByLabelText('Tag')).toHaveValue('prod');
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Resume all' }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/monitors/bulk-action').map((c) => c.body)).toEqual([{ action: 'resume', tag: 'prod' }, { action: 'resume', tag: 'prod' }]));
  });
});
