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
} as const;

/** A channel as the API answers it; a webhook's signing secret is shown only when the channel is created. */
export interface AlertChannel {
  channel_id: string;
  name: string;
  kind: AlertChannelKind;
  target: string;
  /** Jobs whose alerts go here; null: every job with notify_on_failure. */
  job_ids: string[] | null;
  created_at: string;
  secret?: string;
}

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
