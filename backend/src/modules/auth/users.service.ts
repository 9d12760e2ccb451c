import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Subject } from 'rxjs';
import type { DataSource } from 'typeorm';
import type { AccountRole } from '@cronbeam/shared/accounts/roles';
import type { Alongside, Queryable } from '../../common/database/transaction';
import { isUuid } from '../../common/validation/uuid';
import { UserEntity } from './user.entity';
import { UsersRepository, type UserWritableColumns } from './users.repository';

export interface NewUser {
  /** Set when the identity provider owns the id (Cognito's sub); generated otherwise. */
  id?: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerified: boolean;
}

/** What authenticating a request needs of its user. */
export type CallerRow = Pick<UserEntity, 'id' | 'email' | 'sessionsRevokedAt'>;

/** A caller with their role in the account the request acts in (null: not a member of it). */
export interface CallerInAccount extends CallerRow {
  role: AccountRole | null;
}

/**
 * How long a caller row read for authentication is reused. Writes through this
 * service drop it at once; a write made by another instance (or the admin CLI)
 * is seen here after at most this long (docs/adr/0110-api-throughput.md).
 */
export const CALLER_CACHE_TTL_MS = 1_000;
const CALLER_CACHE_MAX = 10_000;

/**
 * The users (`users`, through UsersRepository), for this module and for
 * others. What they own belongs to their accounts (TeamsService).
 */
@Injectable()
export class UsersService {
  /** Caller rows by user id, with the instant they stop being reused. */
  private readonly callers = new Map<string, { row: CallerRow; until: number }>();
  /** Bumped by every write: a read that started before a write must not cache what it read. */
  private writes = 0;
  private readonly sessionsEnded = new Subject<string>();
  /**
   * The id of each user whose every session just ended on this instance
   * (signed out everywhere, or the account deleted), for whatever holds a
   * session open beyond a single request (the event stream).
   */
  readonly sessionsEnded$ = this.sessionsEnded.asObservable();
  private readonly membershipsEnded = new Subject<{ userId: string; accountId: string }>();
  /** Each membership just ended on this instance (a member removed or leaving), for what holds a session open in that account. */
  readonly membershipsEnded$ = this.membershipsEnded.asObservable();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: UsersRepository,
  ) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  /**
   * The user an access token or API key names, as authentication checks it
   * (exists, when sessions were revoked); read at most once per
   * CALLER_CACHE_TTL_MS per user on this instance, and again at once after a
   * write through this service. Missing users are never cached.
   */
  async findCaller(id: string): Promise<CallerRow | null> {
    const now = Date.now();
    const cached = this.callers.get(id);
    if (cached && cached.until > now) return cached.row;
    const writesBefore = this.writes;
    return this.rememberCaller(id, await this.users.findCaller(id), writesBefore, now);
  }

  /**
   * What authentication checks of a request, read from the database every
   * time in one statement: the user (as findCaller) and their role in
   * `accountId` (null, or not a UUID: no role). Membership is not cached, so
   * a removal made by any instance is refused by the next request; the user
   * row read here refreshes the caller cache for the reads that follow in
   * the same request.
   */
  async findCallerIn(id: string, accountId: string | null): Promise<CallerInAccount | null> {
    const writesBefore = this.writes;
    const found = await this.users.findCallerIn(id, accountId !== null && isUuid(accountId) ? accountId : null);
    const row = this.rememberCaller(id, found, writesBefore, Date.now());
    return row && found ? { ...row, role: found.role } : null;
  }

  /**
   * The caller row of what was read, cached for CALLER_CACHE_TTL_MS from
   * `since` unless a write to the user began after the read started
   * (`writesBefore`); a missing user is forgotten, never cached.
   */
  private rememberCaller(id: string, found: { id: string; email: string; sessions_revoked_at: Date | string | null } | null, writesBefore: number, since: number): CallerRow | null {
    if (!found) {
      this.callers.delete(id);
      return null;
    }
    const row: CallerRow = { id: found.id, email: found.email, sessionsRevokedAt: found.sessions_revoked_at ? new Date(found.sessions_revoked_at) : null };
    if (writesBefore === this.writes) {
      if (this.callers.size >= CALLER_CACHE_MAX) this.callers.clear();
      this.callers.set(id, { row, until: since + CALLER_CACHE_TTL_MS });
    }
    return row;
  }

  /** Tells this instance's open sessions in the account that the user is no longer a member (the teams module removes members). */
  membershipEnded(userId: string, accountId: string): void {
    this.membershipsEnded.next({ userId, accountId });
  }

  /** Called before and after every write to a user, so no reader caches a row the write is changing. */
  private forget(userId: string): void {
    this.writes++;
    this.callers.delete(userId);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findByEmail(email.trim());
  }

  /** Every user, oldest first (operators' tooling and housekeeping). */
  list(): Promise<UserEntity[]> {
    return this.users.list();
  }

  /**
   * Inserts an account; null when the email is taken (the unique index
   * decides, so there is no race). `alongside` runs in the same transaction
   * once the user exists, given their id: the account is made with it or not at all.
   */
  async create(fields: NewUser, alongside?: (tx: Queryable, userId: string) => Promise<void>): Promise<UserEntity | null> {
    const row = { ...fields, id: fields.id ?? null, email: fields.email.trim() };
    const id = alongside
      ? await this.db.transaction(async (tx) => {
          const inserted = await this.users.insert(row, tx);
          if (inserted) await alongside(tx, inserted);
          return inserted;
        })
      : await this.users.insert(row);
    return id ? this.findById(id) : null;
  }

  /** Changes the user's row; `alongside` runs in the same transaction, after the update, and its failure undoes it. */
  async update(userId: string, fields: UserWritableColumns, alongside?: Alongside): Promise<void> {
    this.forget(userId);
    if (alongside) {
      await this.db.transaction(async (tx) => {
        await this.users.update(userId, fields, tx);
        await alongside(tx);
      });
    } else {
      await this.users.update(userId, fields);
    }
    this.forget(userId);
    if (fields.sessionsRevokedAt) this.sessionsEnded.next(userId);
  }

  /** Deletes the user and their identity; the accounts they own are deleted before (TeamsService.deleteOwnedBy). */
  async delete(userId: string): Promise<void> {
    this.forget(userId);
    await this.users.delete(userId);
    this.forget(userId);
    this.sessionsEnded.next(userId);
  }
}
