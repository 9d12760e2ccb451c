import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** The readiness probe's one statement: it reads no table, it only needs an answer. */
@Injectable()
export class DatabaseProbeRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Rejects when the database cannot answer. */
  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}
