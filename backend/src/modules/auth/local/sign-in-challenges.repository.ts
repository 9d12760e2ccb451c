import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export type LocalChallengeName = 'SOFTWARE_TOKEN_MFA' | 'NEW_PASSWORD_REQUIRED';

export interface PendingChallenge {
  userId: string;
  challenge: LocalChallengeName;
}

/** All SQL of the `sign_in_challenges` table (session tokens stored as hashes). */
@Injectable()
export class SignInChallengesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(sessionHash: string, userId: string, challenge: LocalChallengeName, ttlSeconds: number): Promise<void> {
    // Expired and answered rows of anyone are dead weight; dropping them here keeps the table small without a timer.
    await this.db.query(`DELETE FROM sign_in_challenges WHERE expires_at < now() - interval '1 hour'`);
    await this.db.query(
      `INSERT INTO sign_in_challenges (session_hash, user_id, challenge, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [sessionHash, userId, challenge, ttlSeconds],
    );
  }

  /** The challenge while it is open: not expired, not answered. */
  async findOpen(sessionHash: string): Promise<PendingChallenge | null> {
    const rows: Array<{ user_id: string; challenge: LocalChallengeName }> = await this.db.query(
      `SELECT user_id, challenge FROM sign_in_challenges WHERE session_hash = $1 AND answered_at IS NULL AND expires_at > now()`,
      [sessionHash],
    );
    return rows[0] ? { userId: rows[0].user_id, challenge: rows[0].challenge } : null;
  }

  /** Closes the challenge; false when it was no longer open (expired, or answered concurrently). */
  async markAnswered(sessionHash: string): Promise<boolean> {
    const [rows]: [unknown[]] = await this.db.query(
      `UPDATE sign_in_challenges SET answered_at = now()
        WHERE session_hash = $1 AND answered_at IS NULL AND expires_at > now() RETURNING user_id`,
      [sessionHash],
    );
    return rows.length === 1;
  }
}
