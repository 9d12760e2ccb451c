import { lazy, Suspense, useEffect } from 'react';
import { INVITATION_PATH } from '@cronbeam/shared/accounts/account-rules';
import { ALERT_CHANNEL_VERIFY_PATH } from '@cronbeam/shared/notifications/alert-channels';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { setUnauthorizedHandler } from './api/api-client';
import { AuthCallbackPage } from './auth/auth-callback-page';
import { LoginPage } from './auth/login-page';
import { prefetchDashboardData } from './dashboard/dashboard-prefetch';
import { SignupPage } from './auth/signup-page';
import { VerifyPage } from './auth/verify-page';
import { ForgotPasswordPage } from './auth/forgot-password-page';
import { isIdTokenExpired } from './session/id-token';
import { useSession } from './session/session-store';
import { loginUrl } from './session/use-session-expiry';
import { HostGuard, SiteRoute } from './host-guard';
import { ErrorBoundary } from './ui/error-boundary';
import { NotFoundPage } from './ui/not-found-page';
import { PageSpinner } from './ui/page-spinner';
import { Toasts } from './ui/toasts';
import { ReauthenticatePrompt } from './account-security/recent-authentication';

/** The dashboard and its widgets are a separate chunk: /login stays small. Its data is asked for while it downloads. */
const DashboardPage = lazy(() => {
  if (!isIdTokenExpired(useSession.getState().idToken)) prefetchDashboardData();
  return import('./dashboard/dashboard-page');
});

/** Pricing, checkout results and the profile load as chunks of their own. */
const PricingPage = lazy(() => import('./billing/pricing-page'));
const SuccessPage = lazy(() => import('./billing/success-page'));
const CancelPage = lazy(() => import('./billing/cancel-page'));
const ProfilePage = lazy(() => import('./profile/profile-page'));
/** The desktop shell's own settings (server URL, start at login, where the session is kept). */
const DesktopSettingsPage = lazy(() => import('./platform/desktop-settings-page'));
/** Where an alert channel's verification link lands (no session needed). */
const AlertChannelVerifyPage = lazy(() => import('./alerts/alert-channel-verify-page'));
const InvitationAcceptPage = lazy(() => import('./accounts/invitation-accept-page'));

/** A 401 anywhere ends the session: clear it and go to /login with the message the request was refused with. */
function UnauthorizedRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler((message) => {
      useSession.getState().clear();
      navigate(loginUrl(message), { replace: true });
    });
  }, [navigate]);
  return null;
}

/** Route table of the web app and the desktop window. */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <>
      <UnauthorizedRedirect />
      <ErrorBoundary variant="page" resetKey={pathname}>
        <Suspense fallback={<PageSpinner />}>
          <Routes>
            <Route path="/" element={<SiteRoute />} />
            <Route path="/terms" element={<SiteRoute />} />
            <Route path="/privacy" element={<SiteRoute />} />
            <Route path="/refund" element={<SiteRoute />} />
            <Route path="/contact" element={<SiteRoute />} />
            <Route path="/api-documentation" element={<SiteRoute />} />
            <Route path="/guides" element={<SiteRoute />} />
            <Route path="/guides/*" element={<SiteRoute />} />
            <Route path="/login" element={<LoginPage />} />
            <Route path="/signup" element={<SignupPage />} />
            <Route path="/verify" element={<VerifyPage />} />
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/verify/:email" element={<VerifyPage />} />
            <Route path="/auth/callback" element={<AuthCallbackPage />} />
            <Route path="/dashboard/auth/callback" element={<AuthCallbackPage />} />
            <Route path={ALERT_CHANNEL_VERIFY_PATH} element={<AlertChannelVerifyPage />} />
            <Route path={INVITATION_PATH} element={<InvitationAcceptPage />} />
            <Route path="/dashboard/*" element={<DashboardPage />} />
            <Route path="/pricing" element={<PricingPage />} />
            <Route path="/success" element={<SuccessPage />} />
            <Route path="/cancel" element={<CancelPage />} />
            <Route path="/profile" element={<ProfilePage />} />
            <Route path="/desktop/settings" element={<DesktopSettingsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </ErrorBoundary>
      <Toasts />
      <ReauthenticatePrompt />
    </>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <HostGuard>
        <AppRoutes />
      </HostGuard>
    </BrowserRouter>
  );
}
