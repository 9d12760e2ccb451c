import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { merge, Subject, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

const CHANNEL = 'cronbeam_scheduler_wake';

/** What one scheduler tells the others. */
export type WakeMessage =
  /** Some job's next run changed: re-arm the timer. */
  | { kind: 'due-changed' }
  /** A job was paused or deleted: drop the runs of it claimed ahead of their instant. */
  | { kind: 'withdraw'; jobId: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Without LISTEN/NOTIFY (the embedded database) every scheduler sharing the
 * database lives in this process, so one process-wide channel reaches them all.
 */
const IN_PROCESS = new Subject<WakeMessage>();

function parse(payload: string | undefined): WakeMessage {
  const [kind, jobId] = (payload ?? '').split(':');
  return kind === 'withdraw' && jobId && UUID.test(jobId) ? { kind, jobId } : { kind: 'due-changed' };
}

/**
 * Tells every scheduler that a job's due time changed, so timers are re-armed
 * at once instead of at the next safety poll, and that a job was paused, so
 * whichever instance claimed its next run ahead of time drops it. On
 * PostgreSQL this is LISTEN/NOTIFY (reaches all instances, this one
 * included); on the embedded database, which has a single session and a
 * single process, it is an in-process signal.
 */
@Injectable()
export class WakeChannel implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(WakeChannel.name);
  private readonly subject = new Subject<WakeMessage>();
  private listener: Client | null = null;
  private listening = false;
  private onPostgres: Promise<boolean> | null = null;
  /** Messages on their way out; shutdown waits for them while the database is still open. */
  private readonly sending = new Set<Promise<void>>();
  readonly messages$: Observable<WakeMessage> = merge(this.subject, IN_PROCESS);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Learns the kind of database at start, so no message has to ask first. */
  async onApplicationBootstrap(): Promise<void> {
    await this.postgres();
  }

  /** Starts receiving every instance's messages, this one's included (scheduling instances only). */
  async listen(): Promise<void> {
    if (!(await this.postgres())) return;
    const url = (this.db.options as PostgresConnectionOptions).url;
    const client = new Client({ connectionString: url, application_name: 'cronbeam-scheduler-listen' });
    client.on('notification', (notification) => this.subject.next(parse(notification.payload)));
    client.on('error', (error) => {
      // The safety poll keeps the scheduler correct without notifications; log and carry on.
      this.logger.warn(`Wake listener lost its connection: ${error.message}`);
      this.listening = false;
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
    this.listening = true;
  }

  /** Signals that some job's next run changed. */
  signal(): void {
    this.send({ kind: 'due-changed' });
  }

  /** Tells every instance to drop the runs of this job it claimed ahead of time. */
  withdraw(jobId: string): void {
    this.send({ kind: 'withdraw', jobId });
  }

  /** Whether the database is a PostgreSQL server (LISTEN/NOTIFY) rather than the embedded one; asked once. */
  postgres(): Promise<boolean> {
    this.onPostgres ??= this.db
      .query('SELECT version()')
      .then(([{ version }]: Array<{ version: string }>) => !version.includes('PGlite'))
      .catch(() => {
        this.onPostgres = null; // ask again next time
        return false;
      });
    return this.onPostgres;
  }

  private send(message: WakeMessage): void {
    const sent = this.postgres().then(async (postgres) => {
      // Without a working listener this instance would not hear its own message: deliver it here as well.
      if (!postgres || !this.listening) IN_PROCESS.next(message);
      if (!postgres) return;
      const payload = message.kind === 'withdraw' ? `withdraw:${message.jobId}` : '';
      await this.db.query(`SELECT pg_notify($1, $2)`, [CHANNEL, payload]).catch((error: Error) => {
        this.logger.warn(`Wake notification failed: ${error.message}`);
      });
    });
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  /** Before the database closes (onApplicationShutdown), so the last job change still reaches the other instances. */
  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }

  async onApplicationShutdown(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    this.listening = false;
    await listener?.end().catch(() => undefined);
  }
}
