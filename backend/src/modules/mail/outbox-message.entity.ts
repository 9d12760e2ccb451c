import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A mail kept in the database instead of being sent (no SMTP configured). */
@Entity('mail_outbox')
export class OutboxMessageEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  recipient: string;

  @Column('text')
  subject: string;

  @Column('text', { name: 'text_body' })
  textBody: string;

  @Column('text', { name: 'html_body', nullable: true })
  htmlBody: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
