import type { MailMessage } from '../mail/mail.service';

/** The mails the identity layer sends. Codes appear in the body only, never in a subject or a log. */
export interface CodeMail {
  to: string;
  name: string;
  code: string;
  /** How long the code stays valid, for the reader. */
  validForSeconds: number;
}

function lifetime(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export function verificationCodeMail({ to, name, code, validForSeconds }: CodeMail): MailMessage {
  return {
    to,
    subject: 'Verify your email for Cronbeam',
    text: `Hello ${name},\n\nYour Cronbeam verification code is ${code}.\n\nIt expires in ${lifetime(validForSeconds)}. If you did not sign up, ignore this mail.\n`,
  };
}

export function passwordResetCodeMail({ to, name, code, validForSeconds }: CodeMail): MailMessage {
  return {
    to,
    subject: 'Reset your Cronbeam password',
    text: `Hello ${name},\n\nYour Cronbeam password reset code is ${code}. It expires in ${lifetime(validForSeconds)}.\n\nIf you did not ask to reset your password, ignore this mail: your password stays as it is.\n`,
  };
}

/** Notices about changes to an account's security; each tells the reader what to do if it was not them. */
export type SecurityEvent =
  | { kind: 'password_changed' }
  | { kind: 'two_factor_enabled' }
  | { kind: 'two_factor_disabled' }
  | { kind: 'new_device'; deviceName: string; ip: string };

const NOT_YOU =
  'If this was not you, reset your password now (Forgot Password on the sign-in page) and sign out everywhere from your profile.';

export function securityNoticeMail(to: string, name: string, event: SecurityEvent, at: Date): MailMessage {
  const when = `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  const notices: Record<SecurityEvent['kind'], { subject: string; body: string }> = {
    password_changed: { subject: 'Your Cronbeam password was changed', body: `The password of your Cronbeam account was changed on ${when}.` },
    two_factor_enabled: {
      subject: 'Two-factor sign-in is on for your Cronbeam account',
      body: `Two-factor sign-in was turned on for your Cronbeam account on ${when}. Signing in now also needs a code from your authenticator app or a recovery code.`,
    },
    two_factor_disabled: {
      subject: 'Two-factor sign-in is off for your Cronbeam account',
      body: `Two-factor sign-in was turned off for your Cronbeam account on ${when}. Signing in now needs only your password.`,
    },
    new_device: {
      subject: 'New device signed in to your Cronbeam account',
      body:
        event.kind === 'new_device'
          ? `A new device ("${event.deviceName}", from address ${event.ip}) signed in to your Cronbeam account on ${when} and will be remembered for two-factor sign-in.`
          : '',
    },
  };
  const notice = notices[event.kind];
  return { to, subject: notice.subject, text: `Hello ${name},\n\n${notice.body}\n\n${NOT_YOU}\n` };
}
