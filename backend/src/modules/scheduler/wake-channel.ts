import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { Subject, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

const CHANNEL = 'cronbeam_scheduler_wake';

/**
 * Tells every scheduler that a job's due time changed, so timers are re-armed
 * at once instead of at the next safety poll. On PostgreSQL this is
 * LISTEN/NOTIFY (reaches all instances); on the embedded database, which has
 * a single session and a single process, it is an in-process signal.
 */
@Injectable()
export class WakeChannel implements OnApplicationShutdown {
  private readonly logger = new Logger(WakeChannel.name);
  private readonly subject = new Subject<void>();
  private listener: Client | null = null;
  private shared = false;
  readonly wakes$: Observable<void> = this.subject.asObservable();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Starts listening for other instances' signals (PostgreSQL only). */
  async listen(): Promise<void> {
    const [{ version }]: Array<{ version: string }> = await this.db.query('SELECT version()');
    if (version.includes('PGlite')) return;
    const url = (this.db.options as PostgresConnectionOptions).url;
    const client = new Client({ connectionString: url, application_name: 'cronbeam-scheduler-listen' });
    client.on('notification', () => this.subject.next());
    client.on('error', (error) => {
      // The safety poll keeps the scheduler correct without notifications; log and carry on.
      this.logger.warn(`Wake listener lost its connection: ${error.message}`);
      this.shared = false;
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
    this.shared = true;
  }

  /** Signals that some job's next run changed. */
  signal(): void {
    if (!this.shared) {
      this.subject.next();
      return;
    }
    this.db.query(`SELECT pg_notify($1, '')`, [CHANNEL]).catch((error: Error) => {
      this.logger.warn(`Wake notification failed: ${error.message}`);
      this.subject.next();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    this.shared = false;
    await listener?.end().catch(() => undefined);
  }
}
