import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { JsonWebKey } from 'node:crypto';

/** An RS256 key pair the local provider signs tokens with; published (public half) in the JWKS. */
@Entity('signing_keys')
export class SigningKeyEntity {
  @PrimaryColumn('text')
  kid: string;

  @Column('text', { name: 'private_key_pem' })
  privateKeyPem: string;

  @Column('jsonb', { name: 'public_jwk' })
  publicJwk: JsonWebKey;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When a newer key took over signing; the key stays published until its last tokens expire. */
  @Column('timestamptz', { name: 'retired_at', nullable: true })
  retiredAt: Date | null;
}
