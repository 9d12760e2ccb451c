import { ACTIVE_JOB_STATUSES, type Job } from '@cronbeam/shared/jobs/job-types';
import { PLAN_LIMITS, isPlanId } from '@cronbeam/shared/plans';
import { create } from 'zustand';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { jobsApi, type DashboardStats } from '../api/jobs-api';
import { notify } from '../ui/toasts';
import { takePrefetchedDashboardData } from './dashboard-prefetch';

/** Spec 3 defaults of the stats when the server has not answered them. */
export const STATS_DEFAULTS = { max_jobs: 2, execution_quota: 1000, plan: 'free', n8n_deployments_quota: 1 } as const;

/** Counts from the local job list, the fallback when /dashboard fails. */
export function statsFromJobs(jobs: Job[], previous: DashboardStats | null): DashboardStats {
  const plan = previous?.plan ?? STATS_DEFAULTS.plan;
  return {
    total_jobs: jobs.length,
    active_jobs: jobs.filter((j) => ACTIVE_JOB_STATUSES.includes(j.status)).length,
    failed_jobs: jobs.filter((j) => j.status === 'failed').length,
    job_count: jobs.length,
    max_jobs: previous?.max_jobs ?? (isPlanId(plan) ? PLAN_LIMITS[plan].maxJobs : STATS_DEFAULTS.max_jobs),
    executions_used: previous?.executions_used ?? 0,
    execution_quota: previous?.execution_quota ?? STATS_DEFAULTS.execution_quota,
    plan,
    n8n_deployments_used: previous?.n8n_deployments_used ?? 0,
    n8n_deployments_quota: previous?.n8n_deployments_quota ?? STATS_DEFAULTS.n8n_deployments_quota,
  };
}

interface DashboardState {
  jobs: Job[];
  stats: DashboardStats | null;
  loading: boolean;
  loaded: boolean;
  /** The top bar's search text; the job tables show the jobs whose name contains it. */
  search: string;
  setSearch(text: string): void;
  /** Loads jobs and stats together; `context` names the failure ('Failed to refresh data: ...'). */
  load(context?: 'load' | 'refresh'): Promise<void>;
  pause(job: Job): Promise<void>;
  resume(job: Job): Promise<void>;
  remove(job: Job): Promise<boolean>;
}

/** The signed-in user's jobs and stats, shared by every dashboard section. */
export const useDashboard = create<DashboardState>((set, get) => ({
  jobs: [],
  stats: null,
  loading: false,
  loaded: false,
  search: '',
  setSearch: (search) => set({ search }),
  load: async (context = 'load') => {
    set({ loading: true });
    // Both calls at once: the dashboard is interactive as soon as the slower one answers.
    const prefetched = takePrefetchedDashboardData();
    const [jobs, stats] = await Promise.allSettled([prefetched?.jobs ?? jobsApi.list(), prefetched?.stats ?? jobsApi.dashboard()]);
    if (jobs.status === 'fulfilled') {
      set({ jobs: jobs.value });
      if (stats.status === 'fulfilled') set({ stats: stats.value });
      else if (!isSessionLost(stats.reason)) {
        notify.error(`Failed to load dashboard data: ${errorMessage(stats.reason)}`);
        set({ stats: statsFromJobs(jobs.value, get().stats) });
      }
    } else if (!isSessionLost(jobs.reason)) {
      // A lost session is reported on /login, where the 401 handler sends the user.
      notify.error(`${context === 'refresh' ? 'Failed to refresh data' : 'Failed to load jobs'}: ${errorMessage(jobs.reason)}`);
    }
    set({ loading: false, loaded: true });
  },
  pause: (job) => toggle(job, 'pause', get().load),
  resume: (job) => toggle(job, 'resume', get().load),
  remove: async (job) => {
    try {
      await jobsApi.remove(job.job_id);
    } catch (error) {
      notify.error(`Failed to delete job: ${errorMessage(error)}`);
      return false;
    }
    set((state) => ({
      jobs: state.jobs.filter((j) => j.job_id !== job.job_id),
      stats: state.stats && {
        ...state.stats,
        total_jobs: state.stats.total_jobs - 1,
        job_count: state.stats.job_count - 1,
        active_jobs: state.stats.active_jobs - (ACTIVE_JOB_STATUSES.includes(job.status) ? 1 : 0),
        failed_jobs: state.stats.failed_jobs - (job.status === 'failed' ? 1 : 0),
      },
    }));
    notify.success(`Job '${job.name}' deleted`);
    return true;
  },
}));

/** Pause or resume, then reload the list, so status and next run come from the server. */
async function toggle(job: Job, action: 'pause' | 'resume', reload: () => Promise<void>) {
  try {
    await (action === 'pause' ? jobsApi.pause(job.job_id) : jobsApi.resume(job.job_id));
    notify.success(`Job '${job.name}' ${action === 'pause' ? 'paused' : 'resumed'}`);
  } catch (error) {
    notify.error(`Failed to pause/resume job: ${errorMessage(error)}`);
  }
  await reload();
}

const isSessionLost = (error: unknown) => error instanceof ApiRequestError && error.status === 401;

/** The jobs whose name contains the search text. */
export function filterJobs(jobs: Job[], search: string): Job[] {
  const needle = search.trim().toLowerCase();
  return needle ? jobs.filter((job) => job.name.toLowerCase().includes(needle)) : jobs;
}
