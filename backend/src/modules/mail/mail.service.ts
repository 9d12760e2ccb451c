import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { AppConfig } from '../../config/app-config';
import { MailOutboxRepository } from './mail-outbox.repository';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends mail over SMTP when SMTP_URL is set; otherwise keeps it in the dev
 * outbox table. Message bodies are never logged: they carry codes and links.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter | null;

  constructor(
    private readonly config: AppConfig,
    private readonly outbox: MailOutboxRepository,
  ) {
    this.transport = config.env.SMTP_URL ? createTransport(config.env.SMTP_URL) : null;
  }

  async send(message: MailMessage): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.env.MAIL_FROM, ...message });
      this.logger.log({ to: message.to, subject: message.subject }, 'Mail sent over SMTP');
      return;
    }
    await this.outbox.insert({ recipient: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html ?? null });
    this.logger.log({ to: message.to, subject: message.subject }, 'Mail stored in the dev outbox (SMTP_URL is not set)');
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
