import { lazy, Suspense, useEffect, useState } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { authApi } from '../api/auth-api';
import { sessionStorageAdapter } from '../platform/platform';
import { useSession } from '../session/session-store';
import { useSessionExpiryCheck } from '../session/use-session-expiry';
import { ErrorBoundary } from '../ui/error-boundary';
import { useDashboard } from './dashboard-store';
import { OverviewSection } from './overview-section';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';
import '../styles/dashboard.css';

/** The job form (with the cron engine) and the monitoring charts load when first opened. */
const JobsSection = lazy(() => import('../jobs/jobs-section'));
const CreateJobSection = lazy(() => import('../jobs/create-job-section'));
const MonitoringSection = lazy(() => import('../monitoring/monitoring-section'));
const DeployN8nSection = lazy(() => import('../deployments/deploy-n8n-section'));
const AlertChannelsSection = lazy(() => import('../alerts/alert-channels-section'));
const MonitorsSection = lazy(() => import('../monitors/monitors-section'));
const StatusPagesSection = lazy(() => import('../status-pages/status-pages-section'));
const MaintenanceSection = lazy(() => import('../maintenance/maintenance-section'));
const AuditSection = lazy(() => import('../audit/audit-section'));
const TeamSection = lazy(() => import('../accounts/team-section'));

/** /dashboard: needs a valid ID token; the sections share one job list. */
export default function DashboardPage() {
  const valid = useSessionExpiryCheck();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const load = useDashboard((s) => s.load);
  const [navOpen, setNavOpen] = useState(false);

  useEffect(() => {
    if (valid) void load();
  }, [valid, load]);

  if (!valid) return null;

  const logout = async () => {
    try {
      await authApi.logout(sessionStorageAdapter().get('refreshToken'));
    } catch {
      // The session ends on this device whatever the server answered.
    }
    useSession.getState().signOut();
    navigate('/login', { replace: true });
  };

  return (
    <div className="dashboard-layout">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <SideNav open={navOpen} onNavigate={() => setNavOpen(false)} />
      {navOpen && <div className="nav-scrim" onClick={() => setNavOpen(false)} aria-hidden="true" />}
      <div className="dashboard-main">
        <TopBar onLogout={logout} onToggleNav={() => setNavOpen(!navOpen)} />
        <main className="dashboard-content" id="main-content" tabIndex={-1}>
          {/* A section that fails to load or render shows its error here; the menu and top bar stay usable. */}
          <ErrorBoundary variant="section" resetKey={pathname}>
            <Suspense fallback={<div className="spinner" role="status" aria-label="Loading section" />}>
              <Routes>
                <Route index element={<OverviewSection />} />
                <Route path="jobs" element={<JobsSection />} />
                <Route path="create" element={<CreateJobSection />} />
                <Route path="monitoring" element={<MonitoringSection />} />
                <Route path="n8n" element={<DeployN8nSection />} />
                <Route path="alerts" element={<AlertChannelsSection />} />
                <Route path="monitors" element={<MonitorsSection />} />
                <Route path="status-pages" element={<StatusPagesSection />} />
                <Route path="maintenance" element={<MaintenanceSection />} />
                <Route path="audit" element={<AuditSection />} />
                <Route path="team" element={<TeamSection />} />
                <Route path="*" element={<OverviewSection />} />
              </Routes>
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
