import type { Job } from '@cronbeam/shared/jobs/job-types';
import { jobsApi, type DashboardStats } from '../api/jobs-api';

interface Prefetched {
  jobs: Promise<Job[]>;
  stats: Promise<DashboardStats>;
}

let pending: Prefetched | null = null;

/**
 * Starts the dashboard's two API calls while its code is still downloading
 * (the dashboard is a lazily loaded chunk), so data and code arrive together.
 * Lives in the main bundle on purpose; it is a few lines.
 */
export function prefetchDashboardData(): void {
  if (pending) return;
  const jobs = jobsApi.list();
  const stats = jobsApi.dashboard();
  // Failures are reported by whoever takes the promises; never as unhandled here.
  jobs.catch(() => undefined);
  stats.catch(() => undefined);
  pending = { jobs, stats };
}

/** The prefetched calls, once; later loads call the API afresh. */
export function takePrefetchedDashboardData(): Prefetched | null {
  const taken = pending;
  pending = null;
  return taken;
}
