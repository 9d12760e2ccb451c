import { z } from 'zod';

/** A key as the list answers it; the secret is never shown again after creation. */
export interface ApiKeySummary {
  key_id: string;
  name: string;
  /** The secret's first characters, to tell keys apart. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** POST /api/api-keys/generate: the only answer that carries the secret. */
export interface GeneratedApiKey extends ApiKeySummary {
  api_key: string;
  /**
   * Sent as X-User-ID with the key on every /prog call: the key's account id
   * (for a personal account, its user's id; the name predates accounts).
   */
  user_id: string;
  /** The account the key acts in (the same value as user_id). */
  account_id: string;
}

/** Keys one account may hold at once. */
export const MAX_API_KEYS_PER_USER = 20;

export const API_KEY_MESSAGES = {
  nameRequired: 'Please enter a name for the API key',
  nameTooLong: 'API key name must be at most 100 characters',
  invalidKey: 'Invalid API key',
  tooManyFailures: 'Too many failed API key attempts from this address; retry later',
  tooManyKeys: `You can have at most ${MAX_API_KEYS_PER_USER} API keys; delete one to generate another`,
} as const;

export const apiKeyRequestSchema = z.strictObject(
  {
    name: z
      .string({ error: API_KEY_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: API_KEY_MESSAGES.nameRequired, abort: true })
      .max(100, API_KEY_MESSAGES.nameTooLong),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : 'Request body must be a JSON object') },
);
