import { Controller, Get, Header, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/http/api-error';
import { MailOutboxRepository } from './mail-outbox.repository';

export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
/** Headers a proxy adds: a request carrying one came from elsewhere, whatever the socket says. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * The mail the server would have sent, newest first. Registered only outside
 * production, and answered only to callers on this machine: the mails carry
 * sign-up and password-reset codes, and a server started without
 * NODE_ENV=production may still be reachable from elsewhere. A proxy on the
 * same machine connects from loopback, so a request with a forwarding header
 * is refused too (development mode also refuses to start with a PUBLIC_URL
 * that is not this machine: app-config.ts).
 */
@Controller('api/dev/outbox')
export class DevOutboxController {
  constructor(private readonly outbox: MailOutboxRepository) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async list(@Req() req: FastifyRequest): Promise<OutboxEntry[]> {
    // The socket's address, not req.ip: X-Forwarded-For must not unlock it.
    const relayed = FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined);
    if (relayed || !LOOPBACK.test(req.socket.remoteAddress ?? '')) throw ApiError.notFound();
    const rows = await this.outbox.listNewest(200);
    return rows.map((m) => ({ to: m.recipient, subject: m.subject, text: m.textBody, created_at: m.createdAt.toISOString() }));
  }
}
