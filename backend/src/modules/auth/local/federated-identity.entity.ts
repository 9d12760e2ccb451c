import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A social identity (provider + its subject id) linked to a local account. */
@Entity('federated_identities')
export class FederatedIdentityEntity {
  @PrimaryColumn('text')
  provider: string;

  @PrimaryColumn('text')
  subject: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
