import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import { MemoryRouter } from 'react-router-dom';
import { useSession } from '../session/session-store';
import { installFakeApi } from '../test-support/fake-api';
import { describeSchedule, formatSeconds, splitSeconds } from './monitor-format';
import { MonitorForm } from './monitor-form';

const saved: Monitor = {
  monitor_id: 'm1',
  name: 'backup',
  ping_url: 'http://localhost/ping/abcdefghijklmnop',
  period_seconds: 7200,
  cron_expression: null,
  time_zone: 'UTC',
  grace_seconds: 300,
  alert_after_misses: 1,
  channel_ids: null,
  tags: [],
  status: 'new',
  last_ping_at: null,
  last_duration_ms: null,
  due_at: null,
  created_at: '2026-11-23T00:00:00.000Z',
};

describe('monitor form', () => {
  beforeEach(() => useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 }));

  it('sends a period in seconds with the chosen channels', async () => {
    const { calls } = installFakeApi({ 'POST /monitors': { status: 200, body: saved } });
    const onSaved = jest.fn();
    const channels = [{ channel_id: 'c1', name: 'ops', kind: 'slack' as const, target: 'https://hooks.example/x', job_ids: null, created_at: '', status: 'active' as const }];
    render(<MemoryRouter><MonitorForm channels={channels} onSaved={onSaved} onCancel={() => undefined} /></MemoryRouter>);
    await userEvent.type(screen.getByLabelText('Monitor name'), 'backup');
    await userEvent.clear(screen.getByLabelText('Period', { exact: true }));
    await userEvent.type(screen.getByLabelText('Period', { exact: true }), '2');
    await userEvent.click(screen.getByLabelText('Channels that take every alert'));
    await userEvent.click(screen.getByLabelText(/ops/));
    await userEvent.clear(screen.getByLabelText('Alert after missed pings in a row'));
    await userEvent.type(screen.getByLabelText('Alert after missed pings in a row'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Create Monitor' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(calls[0]!.body).toEqual({ name: 'backup', period_seconds: 7200, cron_expression: null, grace_seconds: 300, alert_after_misses: 3, channel_ids: ['c1'], tags: [] });
  });

  it('shows the server’s message beside the field it names, and the quota dialog at the job limit', async () => {
    let answer: { status: number; body: unknown } = { status: 422, body: { detail: [{ loc: ['body', 'grace_seconds'], msg: 'grace_seconds must be a whole number from 0 to 604800', type: 'value_error' }] } };
    installFakeApi({ 'PUT /monitors/m1': () => answer });
    render(<MemoryRouter><MonitorForm monitor={saved} channels={[]} onSaved={() => undefined} onCancel={() => undefined} /></MemoryRouter>);
    expect(screen.getByLabelText('Period', { exact: true })).toHaveValue(2);
    expect(screen.getByLabelText('Period unit')).toHaveValue('hours');
    await userEvent.click(screen.getByRole('button', { name: 'Save Monitor' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('grace_seconds must be a whole number');

    answer = { status: 422, body: { detail: [{ loc: ['body', 'alert_after_misses'], msg: 'alert_after_misses must be a whole number from 1 to 1000', type: 'value_error' }] } };
    await userEvent.click(screen.getByRole('button', { name: 'Save Monitor' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('alert_after_misses must be a whole number from 1 to 1000');
    expect(screen.getByLabelText('Alert after missed pings in a row')).toHaveAttribute('aria-invalid', 'true');

    answer = { status: 403, body: { detail: { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 } } };
    await userEvent.click(screen.getByRole('button', { name: 'Save Monitor' }));
    expect(await screen.findByRole('dialog', { name: 'Job Quota Exceeded' })).toHaveTextContent('2 / 2');
  });

  it('describes schedules and durations in words', () => {
    expect(splitSeconds(7200)).toEqual({ value: 2, unit: 'hours' });
    expect(splitSeconds(90)).toEqual({ value: 90, unit: 'seconds' });
    expect(formatSeconds(60)).toBe('1 minute');
    expect(describeSchedule({ period_seconds: 300, cron_expression: null, time_zone: 'UTC' })).toBe('every 5 minutes');
    expect(describeSchedule({ period_seconds: null, cron_expression: '30 2 * * *', time_zone: 'Europe/Berlin' })).toBe('At 02:30, every day (Europe/Berlin)');
  });
});
