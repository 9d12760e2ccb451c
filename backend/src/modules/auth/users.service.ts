import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { PlanId } from '@shared/plans';
import { ApiError } from '../../common/http/api-error';
import { UserEntity } from './user.entity';

/**
 * The `users` table, for this module and for others (plans are read and set
 * through here). Emails are unique case-insensitively (index on lower(email)).
 */
export interface NewUser {
  /** Set when the identity provider owns the id (Cognito's sub); generated otherwise. */
  id?: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerified: boolean;
}

@Injectable()
export class UsersService {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email: email.trim() }).getOne();
  }

  async getPlan(userId: string): Promise<PlanId> {
    const user = await this.users.findOne({ where: { id: userId }, select: { id: true, plan: true } });
    if (!user) throw ApiError.notFound();
    return user.plan;
  }

  /**
   * The plan of each given user, by id (unknown ids are absent). Inside a
   * transaction pass it as `tx`: the embedded database serves one connection's
   * transaction at a time, so a query on another connection would wait for it forever.
   */
  async plansOf(userIds: string[], tx: Pick<EntityManager, 'query'> = this.users.manager): Promise<Map<string, PlanId>> {
    if (userIds.length === 0) return new Map();
    const rows: Array<{ id: string; plan: PlanId }> = await tx.query(`SELECT id, plan FROM users WHERE id = ANY($1::uuid[])`, [[...new Set(userIds)]]);
    return new Map(rows.map((r) => [r.id, r.plan]));
  }

  async setPlan(userId: string, plan: PlanId): Promise<void> {
    const result = await this.users.update({ id: userId }, { plan });
    if (!result.affected) throw ApiError.notFound();
  }

  /** Every user, oldest first (operators' tooling and housekeeping). */
  list(): Promise<UserEntity[]> {
    return this.users.find({ order: { createdAt: 'ASC' } });
  }

  /** Inserts an account; null when the email is taken (the unique index decides, so there is no race). */
  async create(fields: NewUser): Promise<UserEntity | null> {
    const inserted: Array<{ id: string }> = await this.users.query(
      `INSERT INTO users (id, email, name, password_hash, email_verified)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING id`,
      [fields.id ?? null, fields.email.trim(), fields.name, fields.passwordHash, fields.emailVerified],
    );
    return inserted[0] ? this.findById(inserted[0].id) : null;
  }

  async update(userId: string, fields: Partial<Pick<UserEntity, 'name' | 'passwordHash' | 'emailVerified' | 'sessionsRevokedAt'>>): Promise<void> {
    await this.users.update({ id: userId }, fields);
  }

  /** Deletes the user; every table holding their data references users with ON DELETE CASCADE. */
  async delete(userId: string): Promise<void> {
    await this.users.delete({ id: userId });
  }
}
