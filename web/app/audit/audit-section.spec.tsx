import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEvent } from '@cronbeam/shared/audit/audit';
import { useSession } from '../session/session-store';
import { installFakeApi } from '../test-support/fake-api';
import AuditSection from './audit-section';

const updated: AuditEvent = {
  id: '12',
  actor_user_id: '0b6c7c0e-2f0a-4d1b-9a57-3f1e2d4c5b6a',
  actor_key_id: null,
  actor_ip: '203.0.113.7',
  request_id: 'r-12',
  action: 'job.updated',
  target_type: 'job',
  target_id: 'j1',
  changes: { url: { before: 'https://example.com/a', after: 'https://example.com/b' }, headers: { before: { Authorization: '***' }, after: { Authorization: '*** (changed)' } } },
  created_at: '2026-11-27T09:00:00.000Z',
};
const older: AuditEvent = { ...updated, id: '11', action: 'job.created', actor_user_id: null, actor_key_id: '7e1c2d3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b', changes: { name: { before: null, after: 'nightly' } } };

describe('audit log section', () => {
  beforeEach(() => {
    useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 });
  });

  it('lists the entries with who, what and the fields before and after, and pages on', async () => {
    const { fetchMock } = installFakeApi({ 'GET /audit': { status: 200, body: { events: [updated], next_cursor: 'c1' } } });
    // The fake routes by path only: the next page is answered by the cursor in the URL.
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input: string, init?: RequestInit) => {
      if (input.includes('cursor=c1')) return { ok: true, status: 200, text: async () => JSON.stringify({ events: [older], next_cursor: null }) } as Response;
      return answer(input, init);
    });
    render(<AuditSection />);
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('job.updated')).toBeInTheDocument();
    expect(within(row).getByText(/user 0b6c7c0e/)).toBeInTheDocument();
    expect(within(row).getByText(/from 203\.0\.113\.7/)).toBeInTheDocument();
    expect(within(row).getByText(/https:\/\/example\.com\/a → https:\/\/example\.com\/b/)).toBeInTheDocument();
    expect(within(row).getByText(/\{"Authorization":"\*\*\*"\} → \{"Authorization":"\*\*\* \(changed\)"\}/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load older' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(within(table).getAllByRole('row')[2]!).getByText(/API key 7e1c2d3b/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
  });

  it('sends the filters, and downloads the CSV with the same ones', async () => {
    const { fetchMock } = installFakeApi({
      'GET /audit': { status: 200, body: { events: [], next_cursor: null } },
      'GET /audit.csv': { status: 200, body: 'created_at,action' },
    });
    const created: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:audit';
    });
    URL.revokeObjectURL = jest.fn();
    render(<AuditSection />);
    expect(await screen.findByText('No changes match.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Action'), 'job.deleted');
    await userEvent.type(screen.getByLabelText('Target id'), 'j1');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/audit?target=j1&action=job.deleted') || String(url).endsWith('/audit?action=job.deleted&target=j1'))).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(created).toHaveLength(1));
    const csvUrl = fetchMock.mock.calls.map(([url]) => String(url)).find((url) => url.includes('/audit.csv'))!;
    expect(new URL(csvUrl, 'http://localhost').searchParams.get('action')).toBe('job.deleted');
    expect(new URL(csvUrl, 'http://localhost').searchParams.get('target')).toBe('j1');
  });

  it('says why the log could not be read (an editor is refused)', async () => {
    installFakeApi({ 'GET /audit': { status: 403, body: { detail: 'Your role in this account (editor) cannot do this' } } });
    render(<AuditSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The audit log could not be loaded: Your role in this account (editor) cannot do this');
    expect(screen.queryByText('No changes match.')).not.toBeInTheDocument();
  });
});
