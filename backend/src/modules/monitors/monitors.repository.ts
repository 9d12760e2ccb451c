import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { MonitorStatus } from '@shared/notifications/monitors';
import { returnedRows } from '../../common/database/query-rows';

export interface MonitorRow {
  id: string;
  user_id: string;
  name: string;
  token: string;
  period_seconds: number;
  grace_seconds: number;
  status: MonitorStatus;
  last_ping_at: Date | null;
  started_at: Date | null;
  last_duration_ms: number | null;
  due_at: Date | null;
  created_at: Date;
}

/** A monitor whose status a ping or the sweep just changed, with its status before. */
export type ChangedMonitorRow = MonitorRow & { was: MonitorStatus };

/** Every SQL statement on `monitors`, one per function; the user's queries are scoped by user id. */
@Injectable()
export class MonitorsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  listOwned(userId: string): Promise<MonitorRow[]> {
    return this.db.query(`SELECT * FROM monitors WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  }

  async countOwned(userId: string): Promise<number> {
    const [row] = await this.db.query(`SELECT count(*)::int AS n FROM monitors WHERE user_id = $1`, [userId]);
    return row.n;
  }

  async insert(userId: string, name: string, token: string, periodSeconds: number, graceSeconds: number): Promise<MonitorRow> {
    const [row] = await this.db.query(
      `INSERT INTO monitors (user_id, name, token, period_seconds, grace_seconds) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [userId, name, token, periodSeconds, graceSeconds],
    );
    return row;
  }

  async deleteOwned(userId: string, monitorId: string): Promise<boolean> {
    const [, count] = (await this.db.query(`DELETE FROM monitors WHERE id = $1 AND user_id = $2`, [monitorId, userId])) as [unknown, number];
    return count > 0;
  }

  /** A success ping: up, due again one period (plus grace) from now, run time measured from a start ping. */
  async ping(token: string): Promise<ChangedMonitorRow | null> {
    const [row] = returnedRows<ChangedMonitorRow>(await this.db.query(
      `UPDATE monitors m SET status = 'up', last_ping_at = now(),
         last_duration_ms = CASE WHEN o.started_at IS NOT NULL THEN (extract(epoch FROM now() - o.started_at) * 1000)::int ELSE NULL END,
         started_at = NULL,
         due_at = now() + make_interval(secs => m.period_seconds + m.grace_seconds)
       FROM monitors o WHERE o.id = m.id AND m.token = $1
       RETURNING m.*, o.status AS was`,
      [token],
    ));
    return row ?? null;
  }

  /** A failure ping: down at once; the next success ping brings it up. */
  async fail(token: string): Promise<ChangedMonitorRow | null> {
    const [row] = returnedRows<ChangedMonitorRow>(await this.db.query(
      `UPDATE monitors m SET status = 'down', last_ping_at = now(), started_at = NULL, due_at = NULL
       FROM monitors o WHERE o.id = m.id AND m.token = $1
       RETURNING m.*, o.status AS was`,
      [token],
    ));
    return row ?? null;
  }

  async start(token: string): Promise<boolean> {
    const [, count] = (await this.db.query(`UPDATE monitors SET started_at = now() WHERE token = $1`, [token])) as [unknown, number];
    return count > 0;
  }

  /** Monitors whose ping is overdue by more than their grace time go down; answers them. */
  async overdue(): Promise<MonitorRow[]> {
    return returnedRows<MonitorRow>(await this.db.query(`UPDATE monitors SET status = 'down', due_at = NULL WHERE status = 'up' AND due_at < now() RETURNING *`));
  }
}
