import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw RFC 5322 message as received. */
  raw: string;
  /** The body with quoted-printable soft line breaks and escapes undone (enough to read codes and links). */
  body: string;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A real SMTP server on a loopback port (the `smtp-server` package) that
 * requires the given credentials and keeps every message it accepts.
 */
export class SmtpListener {
  readonly mails: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private readonly server: SMTPServer;
  private port = 0;

  constructor(readonly user = 'mailer', readonly password = 'smtp-secret-Pa55') {
    this.server = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, done) =>
        auth.username === this.user && auth.password === this.password ? done(null, { user: auth.username }) : done(new Error('Invalid credentials')),
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            body: decodeQuotedPrintable(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
          });
          this.waiters.splice(0).forEach((wake) => wake());
          done();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** SMTP_URL for the server under test. */
  get url(): string {
    return `smtp://${this.user}:${this.password}@127.0.0.1:${this.port}`;
  }

  /** The first mail to the address received after `since` mails, waiting up to `timeoutMs`. */
  async waitForMail(to: string, since = 0, timeoutMs = 5_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.mails.slice(since).find((m) => m.to.some((a) => a.toLowerCase() === to.toLowerCase()));
      if (mail) return mail;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The six-digit code in a mail body. */
export function codeIn(mail: ReceivedMail): string {
  const code = mail.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error('no six-digit code in the mail');
  return code;
}
