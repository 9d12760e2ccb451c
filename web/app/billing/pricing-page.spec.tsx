import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { useSession } from '../session/session-store';
import { fakeJwt, installFakeApi } from '../test-support/fake-api';
import PricingPage, { ERROR_BANNER_MS } from './pricing-page';
import SuccessPage, { SUCCESS_REDIRECT_SECONDS } from './success-page';

function Where() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/pricing" element={<PricingPage />} />
        <Route path="/success" element={<SuccessPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

const STATS = { plan: 'free', subscription_status: 'free', cancel_at_period_end: false, current_period_end: null, interval: null, scheduled_plan: null, subscription_id: null, billing_enabled: true };
const signIn = () => useSession.getState().signIn({ access_token: 'token', id_token: fakeJwt({ name: 'Ada', exp: Date.now() / 1000 + 3600 }), expires_in: 3600 });
const flush = () => act(async () => undefined);

describe('/pricing', () => {
  afterEach(() => {
    cleanup();
    jest.useRealTimers();
    useSession.getState().clear();
  });

  it('opens on annual billing; signed out, a paid plan goes to /login?redirect=pricing', async () => {
    useSession.getState().clear();
    installFakeApi({});
    renderAt('/pricing');
    expect(screen.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: /Annually/ })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Get Pro' }));
    expect(screen.getByText('at /login?redirect=pricing')).toBeInTheDocument();
  });

  it('signed out: Free goes to /signup', () => {
    useSession.getState().clear();
    installFakeApi({});
    renderAt('/pricing');
    fireEvent.click(screen.getByRole('button', { name: 'Start for Free' }));
    expect(screen.getByText('at /signup')).toBeInTheDocument();
  });

  it('shows a failed checkout in a banner that hides itself after 5 seconds', async () => {
    jest.useFakeTimers();
    signIn();
    const { calls } = installFakeApi({
      'GET /profile/stats': { status: 200, body: STATS },
      'POST /stripe/create-checkout-session': { status: 503, body: { detail: 'Billing is not configured on this server' } },
    });
    renderAt('/pricing');
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Get Basic' }));
    await flush();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ plan: 'basic', interval: 'annual' });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to create checkout session: Billing is not configured on this server');
    act(() => void jest.advanceTimersByTime(ERROR_BANNER_MS - 100));
    expect(screen.queryByRole('alert')).toBeInTheDocument();
    act(() => void jest.advanceTimersByTime(200));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks a paying customer to confirm, then follows the answer; keeping the plan changes nothing', async () => {
    signIn();
    const { calls } = installFakeApi({
      'GET /profile/stats': { status: 200, body: { ...STATS, plan: 'pro', subscription_status: 'active', interval: 'monthly', subscription_id: 'sub_1' } },
      'POST /stripe/create-checkout-session': {
        status: 200,
        body: { requires_confirmation: true, subscription_id: 'sub_1', current_plan: 'pro', current_interval: 'monthly', formatted_end_date: 'December 23, 2026' },
      },
      'POST /stripe/confirm-plan-change': { status: 200, body: { checkout_url: 'http://localhost/profile', change: 'downgrade_scheduled' } },
    });
    renderAt('/pricing');
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Monthly' }));
    expect(screen.getByRole('article', { name: 'Pro' })).toHaveTextContent('Current Plan');
    fireEvent.click(screen.getByRole('button', { name: 'Get Basic' }));
    await flush();
    const dialog = screen.getByRole('dialog', { name: 'Change Subscription Plan' });
    expect(dialog).toHaveTextContent('paid until December 23, 2026');
    fireEvent.click(screen.getByRole('button', { name: 'Keep Current Plan' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/stripe/confirm-plan-change')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Get Basic' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Change My Plan' }));
    await flush();
    expect(calls.find((c) => c.path === '/stripe/confirm-plan-change')!.body).toEqual({ plan: 'basic', interval: 'monthly', subscription_id: 'sub_1' });
    expect(screen.getByText('at /profile')).toBeInTheDocument();
  });

  it('reports a refused plan change', async () => {
    signIn();
    installFakeApi({
      'GET /profile/stats': { status: 200, body: { ...STATS, plan: 'basic', subscription_status: 'active', interval: 'annual', subscription_id: 'sub_1' } },
      'POST /stripe/create-checkout-session': {
        status: 200,
        body: { requires_confirmation: true, subscription_id: 'sub_1', current_plan: 'basic', current_interval: 'annual', formatted_end_date: 'May 1, 2027' },
      },
      'POST /stripe/confirm-plan-change': { status: 400, body: { detail: 'Subscription is not active' } },
    });
    renderAt('/pricing');
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Get Pro' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Change My Plan' }));
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to change subscription plan: Subscription is not active');
  });
});

describe('/success', () => {
  afterEach(() => {
    cleanup();
    jest.useRealTimers();
    useSession.getState().clear();
  });

  it('counts down 5 seconds, then opens the dashboard', () => {
    jest.useFakeTimers();
    signIn();
    renderAt('/success');
    expect(screen.getByRole('heading', { name: 'Subscription Successful!' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(`in ${SUCCESS_REDIRECT_SECONDS} seconds`);
    for (let i = 0; i < SUCCESS_REDIRECT_SECONDS - 1; i += 1) act(() => void jest.advanceTimersByTime(1000));
    expect(screen.getByRole('status')).toHaveTextContent('in 1 second...');
    act(() => void jest.advanceTimersByTime(1000));
    expect(screen.getByText('at /dashboard')).toBeInTheDocument();
  });
});
