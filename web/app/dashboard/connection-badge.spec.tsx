import { act, render, screen } from '@testing-library/react';
import { installFakeApi } from '../test-support/fake-api';
import { ConnectionBadge } from './connection-badge';
import { RECHECK_INTERVAL_MS, useBackendConnection, WATCH_INTERVAL_MS } from './use-backend-connection';

function Badge() {
  return <ConnectionBadge state={useBackendConnection()} />;
}

describe('backend connection badge', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('goes from checking to connected when /ping answers', async () => {
    installFakeApi({ 'GET /ping': { status: 200, body: { message: 'pong' } } });
    render(<Badge />);
    expect(screen.getByRole('status')).toHaveTextContent('Checking...');
    expect(await screen.findByText('Connected')).toBeInTheDocument();
  });

  it('shows disconnected after 4 failed pings, waiting 1, 2 and 4 s between them', async () => {
    const { calls } = installFakeApi({ 'GET /ping': 'network-error' });
    render(<Badge />);
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(calls).toHaveLength(1);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(calls).toHaveLength(2);
    await act(() => jest.advanceTimersByTimeAsync(2000));
    expect(calls).toHaveLength(3);
    expect(screen.getByRole('status')).toHaveTextContent('Checking...');
    await act(() => jest.advanceTimersByTimeAsync(4000));
    expect(calls).toHaveLength(4);
    expect(screen.getByRole('status')).toHaveTextContent('Disconnected');
  });

  it('keeps watching: disconnected after 4 failed pings once the server stops, connected again when it answers', async () => {
    let up = true;
    installFakeApi({ 'GET /ping': () => (up ? { status: 200, body: { message: 'pong' } } : 'network-error') });
    render(<Badge />);
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('status')).toHaveTextContent('Connected');

    up = false;
    await act(() => jest.advanceTimersByTimeAsync(WATCH_INTERVAL_MS));
    expect(screen.getByRole('status')).toHaveTextContent('Checking...');
    await act(() => jest.advanceTimersByTimeAsync(1000 + 2000 + 4000));
    expect(screen.getByRole('status')).toHaveTextContent('Disconnected');

    up = true;
    await act(() => jest.advanceTimersByTimeAsync(RECHECK_INTERVAL_MS));
    expect(screen.getByRole('status')).toHaveTextContent('Connected');
  });
});
