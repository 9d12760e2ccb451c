import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import type { StatusIncident, StatusPage } from '@cronbeam/shared/notifications/status-pages';
import { useSession } from '../session/session-store';
import { installFakeApi } from '../test-support/fake-api';
import { IncidentNotes } from './incident-notes';
import { StatusPageForm } from './status-page-form';

const job = { job_id: 'j1', name: 'billing-export', status: 'success' } as Job;
const monitor = { monitor_id: 'm1', name: 'backup-box', status: 'up' } as Monitor;

const page: StatusPage = {
  page_id: 'p1',
  slug: 'acme',
  title: 'Acme services',
  custom_domain: null,
  items: [{ job_id: null, monitor_id: 'm1', tag: null, label: null }],
  url: 'http://localhost/status/acme',
  feed_url: 'http://localhost/status/acme/feed.atom',
  created_at: '2026-11-23T00:00:00.000Z',
  updated_at: '2026-11-23T00:00:00.000Z',
};

describe('status page form', () => {
  beforeEach(() => useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 }));

  it('publishes the chosen jobs and monitors in the order ticked, with their public names', async () => {
    const { calls } = installFakeApi({ 'POST /status-pages': { status: 200, body: page } });
    const onSaved = jest.fn();
    render(<StatusPageForm jobs={[job]} monitors={[monitor]} onSaved={onSaved} onCancel={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Title'), 'Acme services');
    await userEvent.type(screen.getByLabelText('Address'), 'acme');
    await userEvent.type(screen.getByLabelText('Custom domain (optional)'), 'status.acme.com');
    await userEvent.click(screen.getByRole('checkbox', { name: /backup-box/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /billing-export/ }));
    await userEvent.type(screen.getByLabelText('Public name of billing-export'), 'Billing');
    await userEvent.type(screen.getByLabelText('Tag to show'), 'Prod');
    await userEvent.click(screen.getByRole('button', { name: 'Add Tag' }));
    expect(screen.getByRole('checkbox', { name: 'Everything tagged prod' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Publish Status Page' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(page));
    expect(calls[0]!.body).toEqual({
      slug: 'acme',
      title: 'Acme services',
      custom_domain: 'status.acme.com',
      items: [
        { monitor_id: 'm1', label: null },
        { job_id: 'j1', label: 'Billing' },
        { tag: 'prod', label: null },
      ],
    });
  });

  it('shows the server’s message beside the field it names', async () => {
    installFakeApi({ 'PUT /status-pages/p1': { status: 422, body: { detail: [{ loc: ['body', 'slug'], msg: 'This slug is taken; choose another', type: 'value_error' }] } } });
    render(<StatusPageForm page={page} jobs={[job]} monitors={[monitor]} onSaved={() => undefined} onCancel={() => undefined} />);
    expect(screen.getByRole('checkbox', { name: /backup-box/ })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save Status Page' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This slug is taken; choose another');
    expect(screen.getByLabelText('Address')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('incident notes', () => {
  beforeEach(() => useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 }));

  const incident: StatusIncident = { job_id: 'j1', monitor_id: null, name: 'billing-export', started_at: '2026-11-20T03:00:00.000Z', resolved_at: null, failures: 2, note: null };

  it('lists the incidents and publishes the note written on one', async () => {
    const { calls } = installFakeApi({
      'GET /status-pages/p1/incidents': { status: 200, body: { incidents: [incident] } },
      'PUT /status-pages/p1/incidents/note': (call) => ({ status: 200, body: { ...incident, note: (call.body as { note: string }).note } }),
    });
    render(<IncidentNotes pageId="p1" />);
    expect(await screen.findByText(/ongoing/)).toBeInTheDocument();
    expect(screen.getByText(/2 failed/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Public note'), 'Upstream outage');
    await userEvent.click(screen.getByRole('button', { name: 'Save Note' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ job_id: 'j1', started_at: incident.started_at, note: 'Upstream outage' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Note' })).toBeDisabled());
  });
});
