import { Injectable } from '@nestjs/common';
import { CONTACT_MESSAGES, checkContactMessage } from '@shared/site/contact-rules';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import { MailService } from '../mail/mail.service';
import { ContactRateLimiter } from './contact-rate-limiter';

/** The address contact messages go to: CONTACT_EMAIL, else the sender address of MAIL_FROM. */
export function contactRecipient(config: AppConfig): string {
  if (config.env.CONTACT_EMAIL) return config.env.CONTACT_EMAIL;
  const from = config.env.MAIL_FROM;
  return from.match(/<([^<>]+)>/)?.[1] ?? from;
}

/** Messages from the public contact form, mailed to the team. */
@Injectable()
export class ContactService {
  private readonly limiter = new ContactRateLimiter();

  constructor(
    private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {}

  async send(input: unknown, clientAddress: string): Promise<void> {
    const checked = checkContactMessage(input);
    if (!checked.ok) {
      throw ApiError.validation(Object.entries(checked.errors).map(([field, msg]) => ({ loc: ['body', field], msg: msg ?? '', type: 'value_error' })));
    }
    // Counted after validation: a visitor fixing typos is not throttled.
    const wait = this.limiter.consume(clientAddress);
    if (wait !== null) throw ApiError.tooManyRequests(CONTACT_MESSAGES.rateLimited, wait);
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
