import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isForeignKeyViolation } from '../../common/database/constraint-violation';
import { returnedRows } from '../../common/database/query-rows';

/** A failure episode: its id (shared by its alerts) and when it opened. */
export interface AlertEpisode {
  id: string;
  startedAt: Date;
}

/** Every SQL statement on `job_alert_states`: a job's failed runs in a row and whether it is in a failure episode (one row per job that ever failed with alerts on). */
@Injectable()
export class JobAlertStatesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Counts a failed run; the episode when this failure opens one (the
   * `threshold`-th in a row while the job was not failing), else null. Null
   * for a job deleted meanwhile. The count and the decision are one
   * statement on the locked row, so two instances never both open it.
   */
  async markFailed(jobId: string, threshold: number): Promise<AlertEpisode | null> {
    try {
      await this.db.query(`INSERT INTO job_alert_states (job_id, failing) VALUES ($1, false) ON CONFLICT (job_id) DO NOTHING`, [jobId]);
    } catch (error) {
      if (isForeignKeyViolation(error)) return null;
      throw error;
    }
    const [row] = returnedRows<{ opened: boolean; episode_id: string; changed_at: Date }>(
      await this.db.query(
        `UPDATE job_alert_states s SET consecutive_failures = o.consecutive_failures + 1,
           failing = o.failing OR o.consecutive_failures + 1 >= $2,
           episode_id = CASE WHEN NOT o.failing AND o.consecutive_failures + 1 >= $2 THEN gen_random_uuid() ELSE o.episode_id END,
           changed_at = CASE WHEN NOT o.failing AND o.consecutive_failures + 1 >= $2 THEN now() ELSE o.changed_at END
           FROM (SELECT job_id, failing, consecutive_failures, episode_id, changed_at FROM job_alert_states WHERE job_id = $1 FOR UPDATE) o
          WHERE s.job_id = o.job_id
          RETURNING (NOT o.failing AND s.failing) AS opened, s.episode_id, s.changed_at`,
        [jobId, threshold],
      ),
    );
    return row?.opened ? { id: row.episode_id, startedAt: new Date(row.changed_at) } : null;
  }

  /** The job's open failure episode, if it is in one. */
  async openEpisode(jobId: string): Promise<AlertEpisode | null> {
    const [row] = await this.db.query(`SELECT episode_id, changed_at FROM job_alert_states WHERE job_id = $1 AND failing AND episode_id IS NOT NULL`, [jobId]);
    return row ? { id: row.episode_id, startedAt: new Date(row.changed_at) } : null;
  }

  /**
   * A successful run ends the count of failures in a row; the episode that
   * ends when the job was failing, else null. A job with no failure counted
   * is neither locked nor written.
   */
  async markRecovered(jobId: string): Promise<AlertEpisode | null> {
    const [row] = returnedRows<{ was_failing: boolean; episode_id: string | null; started_at: Date }>(
      await this.db.query(
        `UPDATE job_alert_states s SET failing = false, consecutive_failures = 0, changed_at = CASE WHEN o.failing THEN now() ELSE o.changed_at END
           FROM (SELECT job_id, failing, changed_at FROM job_alert_states WHERE job_id = $1 AND (failing OR consecutive_failures > 0) FOR UPDATE) o
          WHERE s.job_id = o.job_id
          RETURNING o.failing AS was_failing, s.episode_id, o.changed_at AS started_at`,
        [jobId],
      ),
    );
    // An episode opened before episodes had ids closes under one made up now (nothing was triggered under it).
    return row?.was_failing ? { id: row.episode_id ?? randomUUID(), startedAt: new Date(row.started_at) } : null;
  }
}
