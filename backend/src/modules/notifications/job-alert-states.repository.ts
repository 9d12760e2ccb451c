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

/** Every SQL statement on `job_alert_states`: whether a job is in a failure episode (one row per job that ever alerted). */
@Injectable()
export class JobAlertStatesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Marks the job failing; the new episode when it was not (an episode starts), else null. Null for a job deleted meanwhile. */
  async markFailing(jobId: string): Promise<AlertEpisode | null> {
    try {
      const [row] = returnedRows<{ episode_id: string; changed_at: Date }>(
        await this.db.query(
          `INSERT INTO job_alert_states (job_id, failing, episode_id) VALUES ($1, true, gen_random_uuid())
           ON CONFLICT (job_id) DO UPDATE SET failing = true, changed_at = now(), episode_id = gen_random_uuid() WHERE job_alert_states.failing = false
           RETURNING episode_id, changed_at`,
          [jobId],
        ),
      );
      return row ? { id: row.episode_id, startedAt: new Date(row.changed_at) } : null;
    } catch (error) {
      if (isForeignKeyViolation(error)) return null;
      throw error;
    }
  }

  /** Marks the job healthy; the episode that ends when it was failing, else null. */
  async markRecovered(jobId: string): Promise<AlertEpisode | null> {
    const [row] = returnedRows<{ episode_id: string | null; started_at: Date }>(
      await this.db.query(
        `UPDATE job_alert_states s SET failing = false, changed_at = now()
           FROM (SELECT job_id, changed_at FROM job_alert_states WHERE job_id = $1 FOR UPDATE) o
          WHERE s.job_id = o.job_id AND s.failing
          RETURNING s.episode_id, o.changed_at AS started_at`,
        [jobId],
      ),
    );
    // An episode opened before episodes had ids closes under one made up now (nothing was triggered under it).
    return row ? { id: row.episode_id ?? randomUUID(), startedAt: new Date(row.started_at) } : null;
  }
}
