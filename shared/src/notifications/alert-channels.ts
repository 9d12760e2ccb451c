import { z } from 'zod';

/** Where failure and recovery alerts can go, besides the account's own email. */
export const ALERT_CHANNEL_KINDS = ['email', 'webhook', 'slack', 'discord'] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

/** The header of a webhook delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the channel's secret>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-cronbeam-signature';

export const ALERT_CHANNEL_LIMITS = { nameMaxLength: 50, targetMaxLength: 2048, maxChannels: 20 } as const;

export const ALERT_CHANNEL_MESSAGES = {
  name: `Name must be 1 to ${ALERT_CHANNEL_LIMITS.nameMaxLength} characters`,
  kind: `kind must be one of ${ALERT_CHANNEL_KINDS.join(', ')}`,
  email: 'target must be an email address',
  url: 'target must be an http:// or https:// URL',
  jobIds: 'job_ids must be null (every job that alerts) or a list of your job ids',
  tooMany: `At most ${ALERT_CHANNEL_LIMITS.maxChannels} alert channels per account`,
  notFound: 'Alert channel not found',
  unknownJob: 'job_ids names a job that is not yours',
  pendingVerification: 'This email channel is pending verification: it receives no alerts, and no test alert, until its recipient opens the link we mailed to it',
  alreadyVerified: 'This alert channel is already verified',
  verificationLinkInvalid: 'This verification link is invalid, was already used or has expired',
  verificationToken: 'token must be the token of a verification link',
  resendTooSoon: 'A verification mail was just sent to this address; try again later',
  tooManyVerificationMails: 'Too many verification mails sent from this account; try again later',
  tooManyChannelTests: 'Too many test alerts to this channel; try again later',
  tooManyUserTests: 'Too many test alerts from this account; try again later',
} as const;

/** How long a verification link stays valid, and the wait between two mails to one channel. */
export const ALERT_CHANNEL_VERIFICATION = { linkTtlSeconds: 86_400, resendCooldownSeconds: 60 } as const;

/**
 * The web app's page a verification link opens. The token travels in the
 * fragment, which browsers never send to a server, so it stays out of request
 * logs; the page posts it to the API.
 */
export const ALERT_CHANNEL_VERIFY_PATH = '/auth/alert-channel';

/** A channel as the API answers it; a webhook's signing secret is shown only when the channel is created. */
export interface AlertChannel {
  channel_id: string;
  name: string;
  kind: AlertChannelKind;
  target: string;
  /** Jobs whose alerts go here; null: every job with notify_on_failure. */
  job_ids: string[] | null;
  created_at: string;
  /** `pending_verification`: an email channel whose recipient has not opened the mailed link yet; it receives nothing. */
  status: AlertChannelStatus;
  secret?: string;
}

export type AlertChannelStatus = 'active' | 'pending_verification';

/** One attempt to deliver an alert, newest first in the channel's log. */
export interface AlertDelivery {
  delivery_id: string;
  event: 'failed' | 'recovered' | 'auto_paused' | 'test';
  job_id: string | null;
  attempt: number;
  status: 'delivered' | 'failed';
  response_code: number | null;
  error: string | null;
  created_at: string;
}

const isUrl = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * A channel definition: an email channel's target is an address, the others'
 * a URL (Slack's and Discord's incoming-webhook URLs; the kind chooses the
 * message format, so a relay or proxy of either is accepted too).
 */
export const alertChannelSchema = z
  .strictObject(
    {
      name: z.string({ error: ALERT_CHANNEL_MESSAGES.name }).trim().min(1, ALERT_CHANNEL_MESSAGES.name).max(ALERT_CHANNEL_LIMITS.nameMaxLength, ALERT_CHANNEL_MESSAGES.name),
      kind: z.enum(ALERT_CHANNEL_KINDS, { error: ALERT_CHANNEL_MESSAGES.kind }),
      target: z.string({ error: ALERT_CHANNEL_MESSAGES.url }).trim().min(1, ALERT_CHANNEL_MESSAGES.url).max(ALERT_CHANNEL_LIMITS.targetMaxLength, ALERT_CHANNEL_MESSAGES.url),
      job_ids: z.array(z.string({ error: ALERT_CHANNEL_MESSAGES.jobIds }), { error: ALERT_CHANNEL_MESSAGES.jobIds }).max(1000, ALERT_CHANNEL_MESSAGES.jobIds).nullable().default(null),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
  )
  .superRefine((channel, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['target'] });
    if (channel.kind === 'email') {
      if (!z.email().safeParse(channel.target).success) fail(ALERT_CHANNEL_MESSAGES.email);
    } else if (!isUrl(channel.target)) fail(ALERT_CHANNEL_MESSAGES.url);
  });

export type AlertChannelDefinition = z.infer<typeof alertChannelSchema>;

/** The body of the verification call: the token from the link. */
export const alertChannelVerificationSchema = z.strictObject(
  { token: z.string({ error: ALERT_CHANNEL_MESSAGES.verificationToken }).min(1, ALERT_CHANNEL_MESSAGES.verificationToken).max(200, ALERT_CHANNEL_MESSAGES.verificationToken) },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
);
