import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { fakeJwt } from '../test-support/fake-api';
import { useSession } from './session-store';
import { SESSION_CHECK_INTERVAL_MS, useSessionExpiryCheck } from './use-session-expiry';

function Protected() {
  return useSessionExpiryCheck() ? <p>protected content</p> : null;
}

function LoginProbe() {
  const location = useLocation();
  return <p>login page {new URLSearchParams(location.search).get('error')}</p>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/dashboard" element={<Protected />} />
        <Route path="/login" element={<LoginProbe />} />
      </Routes>
    </MemoryRouter>,
  );
}

const signInWithExpiry = (expSeconds: number) =>
  useSession.getState().signIn({ access_token: 'a', id_token: fakeJwt({ name: 'Ada', exp: expSeconds }), expires_in: 60 });

describe('session expiry check', () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 5, 1, 12, 0, 0) }));
  afterEach(() => jest.useRealTimers());

  it('sends a missing session to /login with the expiry message and clears the cookies', () => {
    useSession.getState().clear();
    renderAt('/dashboard');
    expect(screen.getByText('login page Session expired. Please log in again.')).toBeInTheDocument();
  });

  it('checks every 60 seconds and ends the session once the ID token expires', () => {
    signInWithExpiry(Date.now() / 1000 + 90);
    renderAt('/dashboard');
    expect(screen.getByText('protected content')).toBeInTheDocument();
    act(() => void jest.advanceTimersByTime(SESSION_CHECK_INTERVAL_MS));
    expect(screen.getByText('protected content')).toBeInTheDocument();
    act(() => void jest.advanceTimersByTime(SESSION_CHECK_INTERVAL_MS));
    expect(screen.getByText('login page Session expired. Please log in again.')).toBeInTheDocument();
    expect(useSession.getState().idToken).toBeNull();
    expect(document.cookie).not.toContain('idToken=e');
  });
});
