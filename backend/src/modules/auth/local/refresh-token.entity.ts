import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One refresh token (only its SHA-256 is stored). Tokens descending from one
 * sign-in share a family: presenting a token that was already rotated means
 * it leaked, and the whole family is revoked.
 */
@Entity('refresh_tokens')
export class RefreshTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'family_id' })
  familyId: string;

  @Column('text', { name: 'token_hash' })
  tokenHash: string;

  /** When the sign-in this token descends from proved a credential (the access tokens' `auth_time`). */
  @Column('timestamptz', { name: 'authenticated_at' })
  authenticatedAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
