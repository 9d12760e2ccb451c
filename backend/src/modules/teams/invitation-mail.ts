import type { AssignableRole } from '@cronbeam/shared/accounts/account-rules';
import type { MailMessage } from '../mail/mail.service';

export interface InvitationMail {
  to: string;
  /** The inviting member's (verified) address. */
  invitedBy: string;
  role: AssignableRole;
  link: string;
  validForDays: number;
}

/**
 * The mail that invites an address into an account; the link works once, for
 * the address it was sent to. It carries nothing the inviter typed but their
 * verified address (not the account's name, which the link's page shows), so
 * it cannot carry someone's message to a stranger.
 */
export function invitationMail({ to, invitedBy, role, link, validForDays }: InvitationMail): MailMessage {
  return {
    to,
    subject: 'You are invited to a Cronbeam account',
    text: [
      `${invitedBy} invited you to their Cronbeam account as ${role === 'admin' ? 'an' : 'a'} ${role}.`,
      '',
      `To join, open this link within ${validForDays} days and sign in (or sign up) with this address:`,
      link,
      '',
      'If you do not expect this invitation, ignore this mail: nothing happens unless it is accepted.',
      '',
    ].join('\n'),
  };
}
