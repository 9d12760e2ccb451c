import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A key for the /prog API. The secret itself is never stored, only its SHA-256. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'account_id' })
  accountId: string;

  /** The member who made the key (null once they are deleted); the key acts as them in its account. */
  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @Column('text')
  name: string;

  /** The first characters of the secret, shown in lists so users can tell keys apart. */
  @Column('text')
  prefix: string;

  @Column('text', { name: 'secret_hash', select: false })
  secretHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;
}
