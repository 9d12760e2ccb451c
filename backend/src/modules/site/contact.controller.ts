import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { NotAudited } from '../audit';
import { ContactService } from './contact.service';

/** The contact form of the public site (no account needed). */
@Controller('api/site')
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @Post('contact')
  @HttpCode(202)
  @NotAudited('a message to the operators from the public site: no account, nothing of one changes')
  async send(@Body() body: unknown, @Req() req: FastifyRequest): Promise<{ message: string }> {
    await this.contact.send(body, req.ip);
    return { message: 'Message sent' };
  }
}
