import type { MailMessage } from '../mail/mail.service';

export interface ChannelVerificationMail {
  /** The address the channel would alert. */
  to: string;
  /** Who asked: the owning account's own (verified) address. */
  requestedBy: string;
  link: string;
  validForHours: number;
}

/**
 * The mail that asks an address to confirm it wants an account's alerts. It
 * carries nothing the requester typed except their account's verified address
 * (not the channel's name), so it cannot carry someone's message to a stranger.
 */
export function channelVerificationMail({ to, requestedBy, link, validForHours }: ChannelVerificationMail): MailMessage {
  return {
    to,
    subject: 'Confirm Cronbeam alerts to this address',
    text: [
      `The Cronbeam account ${requestedBy} asked to send its job and monitor alerts to this address.`,
      '',
      `To receive them, open this link within ${validForHours} hours and confirm:`,
      link,
      '',
      'If you do not know this account or do not want its alerts, ignore this mail: nothing more is sent to this address unless it is confirmed.',
      '',
    ].join('\n'),
  };
}
