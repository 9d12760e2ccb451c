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
