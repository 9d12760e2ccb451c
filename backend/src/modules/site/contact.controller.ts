import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ContactService } from './contact.service';

/** The contact form of the public site (no account needed). */
@Controller('api/site')
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @Post('contact')
  @HttpCode(202)
  async send(@Body() body: unknown, @Req() req: FastifyRequest): Promise<{ message: string }> {
    await this.contact.send(body, req.ip);
    return { message: 'Message sent' };
  }
}
