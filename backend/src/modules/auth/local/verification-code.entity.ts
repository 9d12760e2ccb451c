import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type CodePurpose = 'verify_email' | 'reset_password';

/** The one live e-mailed code per user and purpose; only its hash is stored. */
@Entity('verification_codes')
export class VerificationCodeEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('text')
  purpose: CodePurpose;

  @Column('text', { name: 'code_hash' })
  codeHash: string;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('integer', { default: 0 })
  attempts: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
