import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** Offsets smaller than this are measurement noise (a loopback round trip), not skew. */
const SKEW_THRESHOLD_MS = 5;

/**
 * Time as the database sees it. Due times are written by every instance and
 * compared across them, so each instance measures its clock's offset from the
 * database's (NTP-style, at the midpoint of a round trip) and corrects for it.
 */
@Injectable()
export class DatabaseClock {
  private readonly logger = new Logger(DatabaseClock.name);
  private offsetMs = 0;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  async measure(): Promise<void> {
    let best: { rtt: number; offset: number } | null = null;
    for (let i = 0; i < 3; i++) {
      const sent = Date.now();
      const [row]: Array<{ ms: string }> = await this.db.query(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`);
      const received = Date.now();
      const sample = { rtt: received - sent, offset: Number(row.ms) - (sent + received) / 2 };
      if (!best || sample.rtt < best.rtt) best = sample;
    }
    const offset = best && Math.abs(best.offset) >= SKEW_THRESHOLD_MS + best.rtt / 2 ? Math.round(best.offset) : 0;
    if (offset !== this.offsetMs) this.logger.log(`Clock offset from the database: ${offset} ms`);
    this.offsetMs = offset;
  }
}
