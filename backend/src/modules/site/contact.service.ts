import { Injectable } from '@nestjs/common';
import { CONTACT_MESSAGES, checkContactMessage } from '@cronbeam/shared/site/contact-rules';
import { ApiError } from '../../common/http/api-error';
import { DatabaseRateLimiter } from '../../common/rate-limit/database-rate-limiter';
import { AppConfig } from '../../config/app-config';
import { MailService } from '../mail/mail.service';

/** Messages one address may send per window: enough for a person, useless for a spammer. */
export const CONTACT_MESSAGES_PER_WINDOW = 5;
export const CONTACT_WINDOW_SECONDS = 60 * 60;

/** The address contact messages go to: CONTACT_EMAIL, else the sender address of MAIL_FROM. */
export function contactRecipient(config: AppConfig): string {
  if (config.env.CONTACT_EMAIL) return config.env.CONTACT_EMAIL;
  const from = config.env.MAIL_FROM;
  return from.match(/<([^<>]+)>/)?.[1] ?? from;
}

/**
 * Messages from the public contact form, mailed to the team. Each costs a
 * mail, so the count per address is kept in the database: it holds across instances.
 */
@Injectable()
export class ContactService {
  constructor(
    private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly limiter: DatabaseRateLimiter,
  ) {}

  async send(input: unknown, clientAddress: string): Promise<void> {
    const checked = checkContactMessage(input);
    if (!checked.ok) {
      throw ApiError.validation(Object.entries(checked.errors).map(([field, msg]) => ({ loc: ['body', field], msg: msg ?? '', type: 'value_error' })));
    }
    // Counted after validation: a visitor fixing typos is not throttled.
    await this.limiter.take([
      { key: `contact:ip:${clientAddress}`, limit: CONTACT_MESSAGES_PER_WINDOW, windowSeconds: CONTACT_WINDOW_SECONDS, message: CONTACT_MESSAGES.rateLimited },
    ]);
    const { name, email, subject, message } = checked.value;
    // Line breaks in the subject would let a sender forge mail headers.
    const topic = (subject || 'Contact form').replace(/[\r\n]+/g, ' ');
    await this.mail.send({
      to: contactRecipient(this.config),
      subject: `[Contact] ${topic}`,
      text: `From: ${name} <${email}>\n\n${message}\n`,
    });
  }
}
