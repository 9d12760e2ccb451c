import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  email: string;

  @Column('text')
  name: string;

  /** scrypt hash with its parameters; null for users who only sign in socially. */
  @Column('text', { name: 'password_hash', nullable: true })
  passwordHash: string | null;

  @Column('boolean', { name: 'email_verified', default: false })
  emailVerified: boolean;

  /** Access tokens issued before this instant are refused (global sign-out, password change). */
  @Column('timestamptz', { name: 'sessions_revoked_at', nullable: true })
  sessionsRevokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
