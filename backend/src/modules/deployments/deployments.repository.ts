import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import {
  DEPLOYMENT_STEP_LABELS,
  DEPLOYMENT_STEPS,
  type Deployment,
  type DeploymentStatus,
  type DeploymentStepName,
  type DeploymentStepState,
} from '@cronbeam/shared/deployments/deployment-types';
import { returnedRows } from '../../common/database/query-rows';
import { auditChanges, auditedStatement, type Actor } from '../audit';

interface DeploymentRow {
  id: string;
  account_id: string;
  name: string;
  app_name: string;
  region: string;
  ram_mb: number;
  estimated_monthly_cost: string;
  status: DeploymentStatus;
  url: string;
  failed_step: DeploymentStepName | null;
  error: string | null;
  fly_volume_id: string | null;
  fly_machine_id: string | null;
  created_at: Date;
  finished_at: Date | null;
  deleted_at: Date | null;
}

interface StepRow {
  deployment_id: string;
  name: DeploymentStepName;
  state: DeploymentStepState;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
}

export interface NewDeployment {
  accountId: string;
  name: string;
  appName: string;
  region: string;
  ramMb: number;
  estimatedMonthlyCost: number;
  url: string;
}

/** What exists on Fly for a deployment, as far as our records go (teardown and rollback read it). */
export interface DeploymentResources {
  id: string;
  accountId: string;
  appName: string;
  status: DeploymentStatus;
  volumeId: string | null;
  machineId: string | null;
  /** The app is ours and still there as far as we know: create_app succeeded and was not rolled back. */
  appCreated: boolean;
}

/**
 * A deployment as its audit entries show it (`row`: the row alias). The Fly
 * token and the n8n owner's password are never stored; a creation's entry
 * shows that they were given, masked (`secrets`: SQL of a jsonb object).
 */
const auditView = (row: string, secrets = `'{}'::jsonb`) =>
  `jsonb_build_object('name', ${row}.name, 'app_name', ${row}.app_name, 'region', ${row}.region, 'ram_mb', ${row}.ram_mb, 'url', ${row}.url, 'status', ${row}.status) || ${secrets}`;
/** Supplied with a creation, shown only as "***". */
const AUDIT_MASKED = ['fly_token', 'password'] as const;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toDeployment(row: DeploymentRow, steps: StepRow[]): Deployment {
  const byName = new Map(steps.map((s) => [s.name, s]));
  return {
    deployment_id: row.id,
    name: row.name,
    app_name: row.app_name,
    status: row.status,
    url: row.url,
    region: row.region,
    ram_mb: row.ram_mb,
    estimated_monthly_cost: Number(row.estimated_monthly_cost),
    failed_step: row.failed_step,
    error: row.error,
    created_at: iso(row.created_at)!,
    finished_at: iso(row.finished_at),
    deleted_at: iso(row.deleted_at),
    steps: DEPLOYMENT_STEPS.map((name) => {
      const step = byName.get(name);
      return {
        name,
        label: DEPLOYMENT_STEP_LABELS[name],
        state: step?.state ?? 'pending',
        started_at: iso(step?.started_at ?? null),
        finished_at: iso(step?.finished_at ?? null),
        error: step?.error ?? null,
      };
    }),
  };
}

const COLUMNS = `id, account_id, name, app_name, region, ram_mb, estimated_monthly_cost, status, url, failed_step, error,
  fly_volume_id, fly_machine_id, created_at, finished_at, deleted_at`;

/**
 * The n8n_deployments and n8n_deployment_steps tables. Every read a user
 * can trigger is scoped by account id; the provisioner's writes go by id.
 */
@Injectable()
export class DeploymentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Counts this calendar month's (UTC) deployments that count against the
   * quota and, if `quota` leaves room, inserts the new one with its steps
   * pending. A per-user advisory lock makes two simultaneous requests at the
   * limit take turns instead of both passing the count.
   */
  async insertWithinQuota(actor: Actor, fields: NewDeployment, quota: number): Promise<{ inserted: Deployment | null; used: number }> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('n8n_deployments:' || $1))`, [fields.accountId]);
      const used = await this.countThisMonth(fields.accountId, tx);
      if (used >= quota) return { inserted: null, used };
      const [row]: DeploymentRow[] = await tx.query(
        ...auditedStatement(actor, {
          ctes: `c AS (INSERT INTO n8n_deployments (account_id, name, app_name, region, ram_mb, estimated_monthly_cost, url)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS})`,
          params: [fields.accountId, fields.name, fields.appName, fields.region, fields.ramMb, fields.estimatedMonthlyCost, fields.url],
          from: 'c',
          action: 'deployment.created',
          targetType: 'deployment',
          targetId: 'c.id',
          changes: auditChanges('NULL', auditView('c', `jsonb_build_object('fly_token', 'given', 'password', 'given')`), AUDIT_MASKED),
          result: `SELECT ${COLUMNS} FROM c`,
        }),
      );
      await tx.query(
        `INSERT INTO n8n_deployment_steps (deployment_id, position, name)
         SELECT $1, ordinality, name FROM unnest($2::text[]) WITH ORDINALITY AS s(name, ordinality)`,
        [row.id, [...DEPLOYMENT_STEPS]],
      );
      return { inserted: toDeployment(row, []), used: used + 1 };
    });
  }

  /**
   * Deployments made this calendar month (UTC) that count against the plan:
   * every one except those that failed (nothing was left running for them).
   */
  async countThisMonth(accountId: string, tx: EntityManager | DataSource = this.db): Promise<number> {
    const [row]: Array<{ n: number }> = await tx.query(
      `SELECT count(*)::int AS n FROM n8n_deployments
       WHERE account_id = $1 AND status <> 'failed' AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
      [accountId],
    );
    return row.n;
  }

  async listForAccount(accountId: string): Promise<Deployment[]> {
    const rows: DeploymentRow[] = await this.db.query(`SELECT ${COLUMNS} FROM n8n_deployments WHERE account_id = $1 ORDER BY created_at DESC, id`, [accountId]);
    if (rows.length === 0) return [];
    const steps: StepRow[] = await this.db.query(
      `SELECT deployment_id, name, state, started_at, finished_at, error FROM n8n_deployment_steps WHERE deployment_id = ANY($1::uuid[])`,
      [rows.map((r) => r.id)],
    );
    return rows.map((row) => toDeployment(row, steps.filter((s) => s.deployment_id === row.id)));
  }

  async findForAccount(accountId: string, id: string): Promise<Deployment | null> {
    const [row]: DeploymentRow[] = await this.db.query(`SELECT ${COLUMNS} FROM n8n_deployments WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return row ? this.withSteps(row) : null;
  }

  /** The provisioner's view of a deployment it runs (no user scope: it only knows ids it created). */
  async findById(id: string): Promise<Deployment & { accountId: string }> {
    const [row]: DeploymentRow[] = await this.db.query(`SELECT ${COLUMNS} FROM n8n_deployments WHERE id = $1`, [id]);
    return { ...(await this.withSteps(row)), accountId: row.account_id };
  }

  async resourcesForAccount(accountId: string, id: string): Promise<DeploymentResources | null> {
    const [row]: Array<DeploymentRow & { app_created: boolean }> = await this.db.query(
      `SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM n8n_deployment_steps s WHERE s.deployment_id = d.id AND s.name = 'create_app' AND s.state = 'done') AS app_created
       FROM n8n_deployments d WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    return row
      ? {
          id: row.id,
          accountId: row.account_id,
          appName: row.app_name,
          status: row.status,
          volumeId: row.fly_volume_id,
          machineId: row.fly_machine_id,
          appCreated: row.app_created,
        }
      : null;
  }

  async startStep(id: string, step: DeploymentStepName): Promise<void> {
    await this.db.query(
      `UPDATE n8n_deployment_steps SET state = 'running', started_at = now(), finished_at = NULL, error = NULL WHERE deployment_id = $1 AND name = $2`,
      [id, step],
    );
    await this.heartbeat([id]);
  }

  async finishStep(id: string, step: DeploymentStepName, state: 'done' | 'failed', error: string | null = null): Promise<void> {
    await this.db.query(
      `UPDATE n8n_deployment_steps SET state = $3, finished_at = now(), error = COALESCE($4, error) WHERE deployment_id = $1 AND name = $2`,
      [id, step, state, error],
    );
    await this.heartbeat([id]);
  }

  /** Marks finished steps as rolled back; a failed or never-run step keeps its state. */
  async markUndone(id: string, steps: DeploymentStepName[]): Promise<void> {
    await this.db.query(`UPDATE n8n_deployment_steps SET state = 'undone' WHERE deployment_id = $1 AND name = ANY($2::text[]) AND state = 'done'`, [id, steps]);
  }

  async recordVolume(id: string, volumeId: string | null): Promise<void> {
    await this.db.query(`UPDATE n8n_deployments SET fly_volume_id = $2 WHERE id = $1`, [id, volumeId]);
  }

  async recordMachine(id: string, machineId: string | null): Promise<void> {
    await this.db.query(`UPDATE n8n_deployments SET fly_machine_id = $2 WHERE id = $1`, [id, machineId]);
  }

  /** Marks in-flight deployments as alive, so no instance takes them for abandoned. */
  async heartbeat(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(`UPDATE n8n_deployments SET heartbeat_at = now() WHERE id = ANY($1::uuid[]) AND status = 'provisioning'`, [ids]);
  }

  /** Only a deployment still provisioning can become live: a concurrent sweep may have failed it. */
  async markLive(id: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(`UPDATE n8n_deployments SET status = 'live', finished_at = now() WHERE id = $1 AND status = 'provisioning' RETURNING id`, [id]),
    );
    return rows.length > 0;
  }

  async markFailed(id: string, step: DeploymentStepName | null, error: string): Promise<void> {
    await this.db.query(
      `UPDATE n8n_deployments SET status = 'failed', failed_step = $2, error = $3, finished_at = now() WHERE id = $1 AND status = 'provisioning'`,
      [id, step, error],
    );
  }

  /** Marks the account's deployment deleted, with its audit entry; false when it is not the account's or already deleted. */
  async markDeleted(actor: Actor, accountId: string, id: string): Promise<boolean> {
    const rows = returnedRows<{ id: string }>(
      await this.db.query(
        ...auditedStatement(actor, {
          ctes: `b AS (SELECT * FROM n8n_deployments WHERE id = $1 AND account_id = $2 AND status <> 'deleted' FOR UPDATE),
            c AS (UPDATE n8n_deployments d SET status = 'deleted', deleted_at = now(), fly_volume_id = NULL, fly_machine_id = NULL
                  FROM b WHERE d.id = b.id RETURNING d.*)`,
          params: [id, accountId],
          from: 'c JOIN b ON b.id = c.id',
          action: 'deployment.deleted',
          targetType: 'deployment',
          targetId: 'c.id',
          changes: auditChanges(auditView('b'), auditView('c'), AUDIT_MASKED),
          result: 'SELECT c.id FROM c',
        }),
      ),
    );
    return rows.length > 0;
  }

  /**
   * Deployments left `provisioning` by an instance that stopped without
   * finishing them (no heartbeat for `staleSeconds`), except those this
   * instance runs. They are failed on the step that was running, and
   * returned so their owners can be told.
   */
  async failAbandoned(staleSeconds: number, runningHere: string[], error: string): Promise<Array<Deployment & { accountId: string }>> {
    // One statement, so a crash cannot leave a failed deployment with its step still running.
    const rows = returnedRows<{ id: string }>(
      await this.db.query(
        `WITH failed AS (
           UPDATE n8n_deployments d SET status = 'failed', error = $3, finished_at = now(),
             failed_step = (SELECT name FROM n8n_deployment_steps s WHERE s.deployment_id = d.id AND s.state = 'running' ORDER BY position LIMIT 1)
           WHERE status = 'provisioning' AND heartbeat_at < now() - make_interval(secs => $1) AND NOT (id = ANY($2::uuid[]))
           RETURNING id
         ), steps AS (
           UPDATE n8n_deployment_steps s SET state = 'failed', finished_at = now(), error = $3
           FROM failed WHERE s.deployment_id = failed.id AND s.state = 'running'
         )
         SELECT id FROM failed`,
        [staleSeconds, runningHere, error],
      ),
    );
    return Promise.all(rows.map(({ id }) => this.findById(id)));
  }

  private async withSteps(row: DeploymentRow): Promise<Deployment> {
    const steps: StepRow[] = await this.db.query(
      `SELECT deployment_id, name, state, started_at, finished_at, error FROM n8n_deployment_steps WHERE deployment_id = $1`,
      [row.id],
    );
    return toDeployment(row, steps);
  }
}
