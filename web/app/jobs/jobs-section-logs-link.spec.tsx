import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { useDashboard } from '../dashboard/dashboard-store';
import { savedJob } from '../test-support/saved-job';
import { installFakeApi } from '../test-support/fake-api';
import JobsSection from './jobs-section';

const job = savedJob({
  status: 'failed',
});

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
