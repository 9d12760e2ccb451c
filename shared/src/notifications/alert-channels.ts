import { z } from 'zod';

/** Where failure and recovery alerts can go, besides the account's own email. */
export const ALERT_CHANNEL_KINDS = ['email', 'webhook', 'slack', 'discord', 'telegram', 'pagerduty', 'ntfy', 'teams', 'alertmanager', 'opsgenie'] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

/**
 * What `secret` is for each kind that takes one: required (Telegram's bot
 * token, PagerDuty's routing key) or optional (an ntfy access token, a
 * bearer token for an Alertmanager-compatible receiver). It is sealed at
 * rest and never answered back. Kinds not listed take no secret.
 */
export const ALERT_CHANNEL_SECRETS: Partial<Record<AlertChannelKind, { required: boolean; pattern: RegExp; message: string }>> = {
  telegram: { required: true, pattern: /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, message: 'secret must be the bot token BotFather gave (digits, a colon, then letters, digits, _ or -)' },
  pagerduty: { required: true, pattern: /^[A-Za-z0-9]{32}$/, message: "secret must be the 32-character routing key of the PagerDuty service's Events API v2 integration" },
  ntfy: { required: false, pattern: /^[\x21-\x7e]{1,200}$/, message: 'secret, when given, must be an ntfy access token (1 to 200 visible characters, no spaces)' },
  opsgenie: { required: true, pattern: /^[A-Za-z0-9-]{20,64}$/, message: 'secret must be the API key of an Opsgenie API integration (20 to 64 letters, digits or -)' },
  alertmanager: { required: false, pattern: /^[\x21-\x7e]{1,500}$/, message: 'secret, when given, must be a bearer token (1 to 500 visible characters, no spaces)' },
};

/** A Telegram channel's target: a chat's numeric id (negative for groups and channels) or a public channel's @username. */
const TELEGRAM_CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

/** Where PagerDuty's Events API v2 takes events (EU accounts use events.eu.pagerduty.com). */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

/** Opsgenie's Alert API v2 (EU accounts use api.eu.opsgenie.com): alerts are created here and closed at <this>/<alias>/close. */
export const OPSGENIE_ALERTS_URL = 'https://api.opsgenie.com/v2/alerts';

/** The header of a webhook delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the channel's secret>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-cronbeam-signature';

export const ALERT_CHANNEL_LIMITS = { nameMaxLength: 50, targetMaxLength: 2048, maxChannels: 20 } as const;

export const ALERT_CHANNEL_MESSAGES = {
  name: `Name must be 1 to ${ALERT_CHANNEL_LIMITS.nameMaxLength} characters`,
  kind: `kind must be one of ${ALERT_CHANNEL_KINDS.join(', ')}`,
  email: 'target must be an email address',
  url: 'target must be an http:// or https:// URL',
  telegramChat: 'target must be a Telegram chat id (digits, negative for groups) or a public channel as @name',
  ntfyTopic: 'target must be the topic URL, e.g. https://ntfy.sh/your-topic',
  secretRequired: (kind: AlertChannelKind) => `secret is required for ${kind} channels`,
  secretUnused: (kind: AlertChannelKind) => `secret is not taken by ${kind} channels${kind === 'webhook' ? ' (the server makes the signing secret)' : ''}`,
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
  event: 'failed' | 'recovered' | 'auto_paused' | 'test' | 'certificate_expiring' | 'certificate_expired';
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
 * A channel definition: an email channel's target is an address, a Telegram
 * channel's a chat, the others' a URL (Slack's, Discord's and Teams' incoming
 * webhooks, an ntfy topic, PagerDuty's events endpoint, an Alertmanager-style
 * receiver; the kind chooses the message format, so a relay or proxy of any
 * of them is accepted too). `secret` is what the kind needs besides
 * (ALERT_CHANNEL_SECRETS).
 */
export const alertChannelSchema = z
  .strictObject(
    {
      name: z.string({ error: ALERT_CHANNEL_MESSAGES.name }).trim().min(1, ALERT_CHANNEL_MESSAGES.name).max(ALERT_CHANNEL_LIMITS.nameMaxLength, ALERT_CHANNEL_MESSAGES.name),
      kind: z.enum(ALERT_CHANNEL_KINDS, { error: ALERT_CHANNEL_MESSAGES.kind }),
      target: z.string({ error: ALERT_CHANNEL_MESSAGES.url }).trim().min(1, ALERT_CHANNEL_MESSAGES.url).max(ALERT_CHANNEL_LIMITS.targetMaxLength, ALERT_CHANNEL_MESSAGES.url),
      job_ids: z.array(z.string({ error: ALERT_CHANNEL_MESSAGES.jobIds }), { error: ALERT_CHANNEL_MESSAGES.jobIds }).max(1000, ALERT_CHANNEL_MESSAGES.jobIds).nullable().default(null),
      secret: z.string({ error: 'secret must be a string' }).max(500, 'secret must be at most 500 characters').optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
  )
  .superRefine((channel, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['target'] });
    if (channel.kind === 'email') {
      if (!z.email().safeParse(channel.target).success) fail(ALERT_CHANNEL_MESSAGES.email);
    } else if (channel.kind === 'telegram') {
      if (!TELEGRAM_CHAT.test(channel.target)) fail(ALERT_CHANNEL_MESSAGES.telegramChat);
    } else if (!isUrl(channel.target)) fail(ALERT_CHANNEL_MESSAGES.url);
    else if (channel.kind === 'ntfy' && !/[^/]\/?$/.test(new URL(channel.target).pathname)) fail(ALERT_CHANNEL_MESSAGES.ntfyTopic);
    const rule = ALERT_CHANNEL_SECRETS[channel.kind];
    const secretIssue = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['secret'] });
    if (!rule) {
      if (channel.secret !== undefined) secretIssue(ALERT_CHANNEL_MESSAGES.secretUnused(channel.kind));
    } else if (channel.secret === undefined || channel.secret === '') {
      if (rule.required) secretIssue(ALERT_CHANNEL_MESSAGES.secretRequired(channel.kind));
    } else if (!rule.pattern.test(channel.secret)) secretIssue(rule.message);
  });

export type AlertChannelDefinition = z.infer<typeof alertChannelSchema>;

/** The body of the verification call: the token from the link. */
export const alertChannelVerificationSchema = z.strictObject(
  { token: z.string({ error: ALERT_CHANNEL_MESSAGES.verificationToken }).min(1, ALERT_CHANNEL_MESSAGES.verificationToken).max(200, ALERT_CHANNEL_MESSAGES.verificationToken) },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
);
