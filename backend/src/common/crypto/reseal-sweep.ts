import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { BackgroundWork } from '../background-work';
import { returnedRows } from '../database/query-rows';
import type { Queryable } from '../database/transaction';
import { SecretBox, SecretUnreadableError } from './secret-box';

const BATCH = 500;

/** A column of sealed secrets, as its owning repository describes it to resealColumn. */
export interface SealedColumn {
  table: string;
  column: string;
  /** The primary key column, and its SQL type (rows are visited in key order). */
  id: string;
  idType: 'uuid' | 'text';
  /** The place a value is sealed for (its associated data); the same function the repository seals with. */
  place(id: string): string;
  /** Stored values that hold no secret and stay as they are (an empty header map). */
  clearValues?: string[];
}

export interface ResealOutcome {
  resealed: number;
  unreadable: number;
  unreadableKeyIds: Set<string>;
}

/**
 * Brings every value of one column to the current form (clear values
 * sealed, values under a previous master key re-wrapped), in key order, a
 * batch per statement. Each write names the value it replaces, so a row the
 * user changed meanwhile, or that another instance's sweep got to first, is
 * left alone. Called by the repository that owns the table.
 */
export async function resealColumn(db: Queryable, box: SecretBox, spec: SealedColumn, stopping: () => boolean): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { resealed: 0, unreadable: 0, unreadableKeyIds: new Set() };
  const { table, column, id, idType } = spec;
  let after: string | null = null;
  while (!stopping()) {
    const rows: Array<{ id: string; value: string }> = await db.query(
      `SELECT ${id}::text AS id, ${column} AS value FROM ${table}
        WHERE ($1::${idType} IS NULL OR ${id} > $1::${idType}) AND ${column} IS NOT NULL
          AND NOT starts_with(${column}, $2) AND NOT (${column} = ANY($3::text[]))
        ORDER BY ${id} LIMIT ${BATCH}`,
      [after, box.currentPrefix, spec.clearValues ?? []],
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const ids: string[] = [];
    const olds: string[] = [];
    const news: string[] = [];
    for (const row of rows) {
      try {
        news.push(box.reseal(row.value, spec.place(row.id)));
        ids.push(row.id);
        olds.push(row.value);
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
        outcome.unreadable++;
        if (error.keyId) outcome.unreadableKeyIds.add(error.keyId);
      }
    }
    if (ids.length > 0) {
      const updated = returnedRows<unknown>(
        await db.query(
          `UPDATE ${table} t SET ${column} = v.sealed
             FROM unnest($1::${idType}[], $2::text[], $3::text[]) AS v(id, old, sealed)
            WHERE t.${id} = v.id AND t.${column} = v.old
           RETURNING 1`,
          [ids, olds, news],
        ),
      );
      outcome.resealed += updated.length;
    }
    if (rows.length < BATCH) break;
  }
  return outcome;
}

type Participant = { name: string; reseal: (stopping: () => boolean) => Promise<ResealOutcome> };

/**
 * At every start, in the background, brings each registered column to the
 * current master key: clear values left by an upgrade get sealed, and after
 * a key rotation data keys sealed under ENCRYPTION_KEYS_PREVIOUS are
 * re-wrapped under ENCRYPTION_KEY. Repositories owning sealed columns
 * register here; values nobody can open are counted and logged, never erased.
 */
@Injectable()
export class ResealSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ResealSweep.name);
  private readonly participants: Participant[] = [];
  private readonly background = new BackgroundWork();
  private stopping = false;
  /** The last sweep, for tests and operators that wait for it. */
  finished: Promise<void> = Promise.resolve();

  constructor(private readonly box: SecretBox) {}

  register(name: string, reseal: Participant['reseal']): void {
    this.participants.push({ name, reseal });
  }

  onApplicationBootstrap(): void {
    this.finished = this.background.track(this.sweep()).catch((error: Error) => this.logger.error(`Re-encrypting stored secrets failed: ${error.message}`));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.background.settled();
  }

  private async sweep(): Promise<void> {
    let unreadable = 0;
    for (const participant of this.participants) {
      const outcome = await participant.reseal(() => this.stopping);
      unreadable += outcome.unreadable;
      if (outcome.resealed > 0) this.logger.log(`Sealed ${outcome.resealed} value(s) of ${participant.name} under master key ${this.box.currentKeyId}`);
      if (outcome.unreadable > 0) {
        this.logger.error(
          `${outcome.unreadable} value(s) of ${participant.name} cannot be decrypted (master key id(s): ${[...outcome.unreadableKeyIds].join(', ') || 'none'}; ` +
            `this server has ${this.box.currentKeyId} in ENCRYPTION_KEY): list the key they were sealed with in ENCRYPTION_KEYS_PREVIOUS`,
        );
      }
    }
    if (this.box.hasPreviousKeys && unreadable === 0 && !this.stopping) {
      this.logger.log(`Every stored secret is sealed under master key ${this.box.currentKeyId}: ENCRYPTION_KEYS_PREVIOUS is no longer needed`);
    }
  }
}
