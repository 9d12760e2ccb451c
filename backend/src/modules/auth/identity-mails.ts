import type { MailMessage } from '../mail/mail.service';

/** The mails the identity layer sends. Codes appear in the body only, never in a subject or a log. */
export function verificationCodeMail(to: string, name: string, code: string): MailMessage {
  return {
    to,
    subject: 'Verify your email for Cronbeam',
    text: `Hello ${name},\n\nYour Cronbeam verification code is ${code}.\n\nIt expires in 24 hours. If you did not sign up, ignore this mail.\n`,
  };
}

export function passwordResetCodeMail(to: string, name: string, code: string): MailMessage {
  return {
    to,
    subject: 'Reset your Cronbeam password',
    text: `Hello ${name},\n\nYour Cronbeam password reset code is ${code}.\n\nIf you did not ask to reset your password, ignore this mail: your password stays as it is.\n`,
  };
}
