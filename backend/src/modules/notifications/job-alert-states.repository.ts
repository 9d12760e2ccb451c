import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isForeignKeyViolation } from '../../common/database/constraint-violation';
import { returnedRows } from '../../common/database/query-rows';

/** Every SQL statement on `job_alert_states`: whether a job is in a failure episode (one row per job that ever alerted). */
@Injectable()
export class JobAlertStatesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Marks the job failing; true when it was not (an episode starts). False for a job deleted meanwhile. */
  async markFailing(jobId: string): Promise<boolean> {
    try {
      const rows = returnedRows(
        await this.db.query(
          `INSERT INTO job_alert_states (job_id, failing) VALUES ($1, true)
           ON CONFLICT (job_id) DO UPDATE SET failing = true, changed_at = now() WHERE job_alert_states.failing = false
           RETURNING job_id`,
          [jobId],
        ),
      );
      return rows.length > 0;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  /** Marks the job healthy; true when it was failing (an episode ends). */
  async markRecovered(jobId: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(`UPDATE job_alert_states SET failing = false, changed_at = now() WHERE job_id = $1 AND failing RETURNING job_id`, [jobId]),
    );
    return rows.length > 0;
  }
}
