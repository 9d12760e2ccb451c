import type { DashboardStats } from '../api/jobs-api';
import { formatCount } from '../ui/format';
import { STATS_DEFAULTS } from './dashboard-store';

interface Card {
  label: string;
  value: string;
  tone?: 'success' | 'danger' | 'primary';
  /** 0..1 fill of a usage bar. */
  usage?: number;
  /** What the number counts, where the label alone leaves it open (the card's tooltip, and read out after the value). */
  hint?: string;
}

/** Active is not "last run succeeded": it is every job the scheduler will run again. */
export const ACTIVE_JOBS_HINT = 'Jobs that will run again: not paused and not held back by the plan quota, whatever their last result.';

function cardsFor(stats: DashboardStats | null): Card[] {
  const s = stats ?? { total_jobs: 0, active_jobs: 0, failed_jobs: 0, job_count: 0, executions_used: 0, n8n_deployments_used: 0, ...STATS_DEFAULTS };
  const ratio = (used: number, max: number) => (max > 0 ? Math.min(1, used / max) : 0);
  return [
    { label: 'Total Jobs', value: formatCount(s.total_jobs) },
    { label: 'Active Jobs', value: formatCount(s.active_jobs), tone: 'success', hint: ACTIVE_JOBS_HINT },
    { label: 'Failed Jobs', value: formatCount(s.failed_jobs), tone: 'danger' },
    {
      label: 'Monitors',
      value: s.monitors_down ? `${formatCount(s.total_monitors)} (${formatCount(s.monitors_down)} down)` : formatCount(s.total_monitors),
      tone: s.monitors_down ? 'danger' : undefined,
    },
    { label: 'Jobs Used', value: `${formatCount(s.job_count)} / ${formatCount(s.max_jobs)}`, usage: ratio(s.job_count, s.max_jobs) },
    {
      label: 'Executions Used',
      value: `${formatCount(s.executions_used)} / ${formatCount(s.execution_quota)}`,
      usage: ratio(s.executions_used, s.execution_quota),
    },
    {
      label: 'N8N Deployments (this month)',
      value: `${formatCount(s.n8n_deployments_used)} / ${formatCount(s.n8n_deployments_quota)}`,
      usage: ratio(s.n8n_deployments_used, s.n8n_deployments_quota),
    },
    { label: 'Plan', value: s.plan.charAt(0).toUpperCase() + s.plan.slice(1), tone: 'primary' },
  ];
}

/** The stat cards of the Dashboard section: the spec's seven and the monitors beside the jobs. */
export function StatCards({ stats }: { stats: DashboardStats | null }) {
  return (
    <ul className="stat-cards" aria-label="Account statistics">
      {cardsFor(stats).map((card) => (
        <li key={card.label} className={`stat-card${card.tone ? ` stat-${card.tone}` : ''}`} title={card.hint}>
          <span className="stat-label">{card.label}</span>
          <span className="stat-value">{card.label === 'Plan' ? <span className="plan-badge">{card.value}</span> : card.value}</span>
          {card.hint && <span className="visually-hidden">{card.hint}</span>}
          {card.usage !== undefined && (
            <span className="usage-bar" aria-hidden="true">
              <span style={{ width: `${Math.round(card.usage * 100)}%` }} className={card.usage >= 1 ? 'usage-full' : undefined} />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
