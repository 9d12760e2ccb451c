import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { OutboxMessageEntity } from './outbox-message.entity';

/** Every SQL statement on `mail_outbox` (mail kept instead of sent), one per function. */
@Injectable()
export class MailOutboxRepository {
  constructor(@InjectRepository(OutboxMessageEntity) private readonly outbox: Repository<OutboxMessageEntity>) {}

  async insert(row: Pick<OutboxMessageEntity, 'recipient' | 'subject' | 'textBody' | 'htmlBody'>): Promise<void> {
    await this.outbox.insert(row);
  }

  /** The newest `limit` messages, newest first. */
  listNewest(limit: number): Promise<OutboxMessageEntity[]> {
    return this.outbox.find({ order: { createdAt: 'DESC' }, take: limit });
  }
}
