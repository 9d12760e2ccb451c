import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { DashboardStats } from '../api/jobs-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { useSession } from '../session/session-store';
import { installFakeApi } from '../test-support/fake-api';
import DeployN8nSection from './deploy-n8n-section';

const stats = (used: number): DashboardStats => ({
  total_jobs: 0,
  active_jobs: 0,
  failed_jobs: 0,
  job_count: 0,
  max_jobs: 2,
  executions_used: 0,
  execution_quota: 100,
  plan: 'free',
  n8n_deployments_used: used,
  n8n_deployments_quota: 1,
});

function renderSection() {
  render(
    <MemoryRouter>
      <DeployN8nSection />
    </MemoryRouter>,
  );
}

describe('Self-Host N8N section', () => {
  beforeEach(() => {
    useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 });
    useDashboard.setState({ stats: stats(0) });
  });

  it('estimates the monthly cost as region and RAM change, and warns about the dear regions', async () => {
    installFakeApi({ 'GET /deploy/n8n': { status: 200, body: [] } });
    renderSection();
    expect(screen.getByLabelText('Region')).toHaveValue('lax');
    expect(screen.getByTestId('cost-estimate')).toHaveTextContent('$12.20');
    expect(screen.getByText('(recommended)')).toBeInTheDocument();
    expect(screen.queryByTestId('cost-warning')).not.toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Region'), 'jnb');
    expect(screen.getByTestId('cost-warning')).toHaveTextContent('10% above');
    expect(screen.getByTestId('cost-estimate')).toHaveTextContent('$13.42');

    fireEvent.change(screen.getByLabelText(/^RAM/), { target: { value: '512' } });
    expect(screen.getByTestId('cost-estimate')).toHaveTextContent('$5.16');
    expect(screen.queryByText('(recommended)')).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Region'), 'sea');
    expect(screen.queryByTestId('cost-warning')).not.toBeInTheDocument();
  });

  it('disables Deploy when the month is used up', async () => {
    installFakeApi({ 'GET /deploy/n8n': { status: 200, body: [] } });
    useDashboard.setState({ stats: stats(1) });
    renderSection();
    expect(screen.getByRole('button', { name: 'Deploy' })).toBeDisabled();
    expect(screen.getByTestId('deploy-quota')).toHaveTextContent('1 / 1');
  });

  it("opens the 'N8N Deployment Quota Exceeded' modal on the server's 403", async () => {
    const api = installFakeApi({
      'GET /deploy/n8n': { status: 200, body: [] },
      'POST /deploy/n8n': {
        status: 403,
        body: { detail: { error: 'N8N deployment limit exceeded', plan: 'basic', deployments_used: 5, deployments_quota: 5 } },
      },
    });
    renderSection();
    await userEvent.type(screen.getByLabelText('Fly.io API token'), 'fo1_0123456789');
    await userEvent.type(screen.getByLabelText('n8n username'), 'admin');
    await userEvent.type(screen.getByLabelText('n8n password'), 'secret-pw');
    await userEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    const dialog = await screen.findByRole('dialog', { name: 'N8N Deployment Quota Exceeded' });
    expect(within(dialog).getByText('5 / 5')).toBeInTheDocument();
    expect(within(dialog).getByText('basic')).toBeInTheDocument();
    expect(within(dialog).getByRole('table', { name: 'Deployments per plan' })).toHaveTextContent('Pro500');
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      fly_token: 'fo1_0123456789',
      username: 'admin',
      password: 'secret-pw',
      region: 'lax',
      ram_mb: 2048,
      app_name: '',
      deployment_name: '',
    });
  });
});
