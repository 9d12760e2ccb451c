import { Link } from 'react-router-dom';
import { MonitorsPanel } from '../monitors/monitors-panel';
import { formatToday } from '../ui/format';
import { filterJobs, useDashboard } from './dashboard-store';
import { RecentActivityTable } from './recent-activity-table';
import { StatCards } from './stat-cards';

/** Spec: Recent Activity lists the first 5 jobs. */
export const RECENT_ACTIVITY_SIZE = 5;

/** The Dashboard section: date, refresh, stat cards, Recent Activity and the heartbeat monitors. */
export function OverviewSection() {
  const { jobs, stats, loading, loaded, load, search } = useDashboard();
  const recent = filterJobs(jobs, search).slice(0, RECENT_ACTIVITY_SIZE);
  return (
    <section aria-labelledby="overview-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="overview-title">Dashboard</h1>
          <p className="muted">{formatToday()}</p>
        </div>
        <button type="button" className="button button-secondary" onClick={() => load('refresh')} disabled={loading}>
          {loading ? 'Refreshing...' : 'Refresh'}
        </button>
      </div>
      <StatCards stats={stats} />
      <div className="panel">
        <div className="panel-header">
          <h2>Recent Activity</h2>
          <Link to="/dashboard/jobs" className="link-muted">
            View all jobs
          </Link>
        </div>
        {recent.length > 0 ? (
          <RecentActivityTable jobs={recent} />
        ) : (
          loaded && (
            <p className="empty-state">
              No jobs found. <Link to="/dashboard/create">Create your first job</Link>
            </p>
          )
        )}
      </div>
      <MonitorsPanel />
    </section>
  );
}
