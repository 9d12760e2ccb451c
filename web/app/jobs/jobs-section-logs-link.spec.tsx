import type { Job } from '@cronbeam/shared/jobs/job-types';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { useDashboard } from '../dashboard/dashboard-store';
import { installFakeApi } from '../test-support/fake-api';
import JobsSection from './jobs-section';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';

const job: Job = {
  job_id: '7d1f1e4e-3a55-4c3e-9b0f-2a0e6c1d9e11',
  name: 'nightly-backup',
  url: 'https://example.com/backup',
  method: 'GET',
  headers: {},
  body: '',
  cron_expression: '0 2 * * *',
  time_zone: 'UTC',
  every_seconds: null,
  run_at: null,
  starts_at: null,
  ends_at: null,
  jitter_seconds: 0,
  overlap: 'allow',
  catch_up: 'latest',
  catch_up_window_seconds: null,
  response_rules: null,
  timeout_seconds: null,
  auto_pause_after: null,
  alert_after_failures: 1,
  certificate_alert_days: 14,
  certificate_expires_at: null,
  delivery: 'at_least_once',
  tags: [],
  retry: DEFAULT_RETRY_POLICY,
  identity_token: null,
  callback_url: null,
  status: 'failed',
  notify_on_failure: true,
  next_run_at: null,
  last_run_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

describe('jobs section: ?logs=<id> (desktop notifications, tray and cronbeam:// links)', () => {
  it("opens that job's logs, and closing them drops the parameter", async () => {
    installFakeApi({ [`GET /jobs/${job.job_id}/logs`]: { status: 200, body: { logs: [] } } });
    useDashboard.setState({ jobs: [job], loaded: true, loading: false });
    render(
      <MemoryRouter initialEntries={[`/dashboard/jobs?logs=${job.job_id}`]}>
        <Routes>
          <Route
            path="/dashboard/jobs"
            element={
              <>
                <JobsSection />
                <Search />
              </>
            }
          />
        </Routes>
      </MemoryRouter>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Logs: nightly-backup' });
    expect(dialog).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /close/i }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('search')).toHaveTextContent(/^$/);
  });
});
