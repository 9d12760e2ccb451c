import { Controller, Get, Header } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { OutboxMessageEntity } from './outbox-message.entity';

export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/** The mail the server would have sent, newest first. Registered only outside production. */
@Controller('api/dev/outbox')
export class DevOutboxController {
  constructor(@InjectRepository(OutboxMessageEntity) private readonly outbox: Repository<OutboxMessageEntity>) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async list(): Promise<OutboxEntry[]> {
    const rows = await this.outbox.find({ order: { createdAt: 'DESC' }, take: 200 });
    return rows.map((m) => ({ to: m.recipient, subject: m.subject, text: m.textBody, created_at: m.createdAt.toISOString() }));
  }
}
