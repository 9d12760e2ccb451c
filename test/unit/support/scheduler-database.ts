import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ResealSweep } from '../../../backend/src/common/crypto/reseal-sweep';
import { SecretBox } from '../../../backend/src/common/crypto/secret-box';
import { AppConfig } from '../../../backend/src/config/app-config';
import { MIGRATIONS } from '../../../backend/src/database/migrations';
import { ReadDatabase } from '../../../backend/src/database/read-database';
import { UserEntity } from '../../../backend/src/modules/auth/user.entity';
import { AccountsRepository } from '../../../backend/src/modules/teams/accounts.repository';
import { TeamsService } from '../../../backend/src/modules/teams/teams.service';
import type { HttpExecutor } from '../../../backend/src/modules/executor/http-executor.service';
import { JobScheduleService } from '../../../backend/src/modules/jobs/job-schedule.service';
import { JobEvents } from '../../../backend/src/modules/jobs/job-events';
import { JobEntity } from '../../../backend/src/modules/jobs/job.entity';
import { JobsRepository } from '../../../backend/src/modules/jobs/jobs.repository';
import type { JobsService } from '../../../backend/src/modules/jobs/jobs.service';
import { MaintenanceWindowsRepository } from '../../../backend/src/modules/maintenance/maintenance-windows.repository';
import { MaintenanceWindowsService } from '../../../backend/src/modules/maintenance/maintenance-windows.service';
import { MetricsRegistry } from '../../../backend/src/modules/metrics/metrics-registry';
import { QuotaService } from '../../../backend/src/modules/quota/quota.service';
import { UsagePeriodEntity } from '../../../backend/src/modules/quota/usage-period.entity';
import { UsagePeriodsRepository } from '../../../backend/src/modules/quota/usage-periods.repository';
import { DispatchPressure } from '../../../backend/src/modules/runs/dispatch-pressure.service';
import { ExecutionEvents } from '../../../backend/src/modules/runs/execution-events';
import { ExecutionMetrics } from '../../../backend/src/modules/runs/execution-metrics';
import { JobRunEntity } from '../../../backend/src/modules/runs/job-run.entity';
import { JobRunsRepository } from '../../../backend/src/modules/runs/job-runs.repository';
import { LeaseOwner } from '../../../backend/src/modules/runs/lease-owner';
import { RunRecorder } from '../../../backend/src/modules/runs/run-recorder';
import { RunSettings } from '../../../backend/src/modules/runs/run-settings';
import { RunsService } from '../../../backend/src/modules/runs/runs.service';
import { InstanceLiveness } from '../../../backend/src/modules/scheduler/instance-liveness';
import { RunClaimer } from '../../../backend/src/modules/scheduler/run-claimer';
import { SchedulerInstancesRepository } from '../../../backend/src/modules/scheduler/scheduler-instances.repository';
import { SchedulerSettings } from '../../../backend/src/modules/scheduler/scheduler-settings';
import { WakeChannel } from '../../../backend/src/modules/scheduler/wake-channel';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';

/**
 * The scheduler's database side without an application: a migrated database
 * (embedded, or PostgreSQL with TEST_DATABASE_URL) and the claim and record
 * services wired by hand, as Nest would wire them. Nothing executes HTTP.
 */
export class SchedulerDatabase {
  private constructor(
    readonly database: TestDatabase,
    readonly db: DataSource,
    private readonly env: Record<string, string>,
  ) {}

  /** The settings every instance is built with: the test's environment over a few defaults of these tests. */
  private configWith(overrides: Record<string, string> = {}): AppConfig {
    return AppConfig.fromEnvironment({ NODE_ENV: 'test', SCHEDULER_BATCH_SIZE: '50', RETRY_BACKOFF_BASE_MS: '10000', ...this.env, ...overrides });
  }

  static async start(env: Record<string, string> = {}): Promise<SchedulerDatabase> {
    const database = await createTestDatabase(4, { migrated: true });
    const db = new DataSource({
      type: 'postgres',
      url: database.url,
      entities: [UserEntity, JobEntity, JobRunEntity, UsagePeriodEntity],
      migrations: MIGRATIONS,
      migrationsTransactionMode: 'each',
      installExtensions: false,
      uuidExtension: 'pgcrypto',
      poolSize: 4,
    });
    await db.initialize();
    await db.runMigrations();
    return new SchedulerDatabase(database, db, env);
  }

  /** One scheduler instance's claim and record services (each with its own lease owner), with its own settings if given. */
  instance(overrides: Record<string, string> = {}): SchedulerInstanceParts {
    const config = this.configWith(overrides);
    const teams = new TeamsService(this.db, new AccountsRepository(this.db));
    const quota = new QuotaService(new UsagePeriodsRepository(this.db));
    const owner = new LeaseOwner();
    const runSettings = new RunSettings(config);
    const events = new ExecutionEvents();
    const pressure = new DispatchPressure();
    const metrics = new ExecutionMetrics(new MetricsRegistry());
    const read = new ReadDatabase(this.db, null);
    const runsRepository = new JobRunsRepository(this.db, read);
    const recorder = new RunRecorder(this.db, runsRepository, runSettings, owner, events, metrics, pressure);
    const noExecutor = null as unknown as HttpExecutor; // claim and record never execute
    const runs = new RunsService(this.db, runsRepository, recorder, events, owner, runSettings, quota, noExecutor, pressure, metrics);
    const box = new SecretBox(randomBytes(32));
    const jobs = new JobScheduleService(new JobsRepository(this.db.getRepository(JobEntity), box, new ResealSweep(box), read), runs, new JobEvents());
    jobs.onModuleInit();
    const settings = new SchedulerSettings(config);
    const liveness = new InstanceLiveness(settings, new SchedulerInstancesRepository(this.db), runs, new WakeChannel(this.db));
    const noJobs = null as unknown as JobsService; // the claim only reads windows, never checks a job's owner
    const maintenance = new MaintenanceWindowsService(new MaintenanceWindowsRepository(this.db, read), noJobs);
    const claimer = new RunClaimer(this.db, settings, jobs, runs, quota, teams, liveness, maintenance);
    return { claimer, runs, events, owner, liveness, pressure };
  }

  async createUser(plan = 'free'): Promise<string> {
    const [row]: Array<{ id: string }> = await this.db.query(
      `WITH u AS (INSERT INTO users (email, name) VALUES ($1, 'Test') RETURNING id, name),
            a AS (INSERT INTO accounts (id, name, personal, plan) SELECT id, name, true, $2 FROM u),
            m AS (INSERT INTO account_members (account_id, user_id, role) SELECT id, id, 'owner' FROM u)
       SELECT id FROM u`,
      [`u${Math.random().toString(36).slice(2)}@example.com`, plan],
    );
    return row.id;
  }

  async createJob(userId: string, fields: { cron?: string; nextRunAt: Date; url?: string; status?: string }): Promise<string> {
    const [row]: Array<{ id: string }> = await this.db.query(
      `INSERT INTO jobs (account_id, name, url, method, headers, body, cron_expression, status, next_run_at)
       VALUES ($1, $2, $3, 'POST', '{"x-test":"1"}', 'ping', $4, $5, $6) RETURNING id`,
      [userId, `job-${Math.random().toString(36).slice(2)}`, fields.url ?? 'https://example.com/hook', fields.cron ?? '*/5 * * * *', fields.status ?? 'scheduled', fields.nextRunAt],
    );
    return row.id;
  }

  /** Removes every job (their runs go with them) and usage count, so each test starts from an empty schedule. */
  async clear(): Promise<void> {
    await this.db.query('DELETE FROM scheduler_instances');
    await this.db.query('DELETE FROM jobs');
    await this.db.query('DELETE FROM usage_periods');
  }

  query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.db.query(sql, params);
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await this.database.drop();
  }
}

export interface SchedulerInstanceParts {
  claimer: RunClaimer;
  runs: RunsService;
  events: ExecutionEvents;
  owner: LeaseOwner;
  /** The instance's liveness row (not started: tests register and mark it themselves). */
  liveness: InstanceLiveness;
  /** What the dispatcher would report of the requests it sends (nothing does here unless a test says so). */
  pressure: DispatchPressure;
}
