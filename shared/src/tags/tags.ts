import { z } from 'zod';

/**
 * Tags group jobs and monitors ("prod", "billing", "team:ops") so lists can
 * be filtered and many items paused, resumed or deleted at once; maintenance
 * windows and status pages name them too. A tag is stored lower-case, so
 * "Prod" and "prod" are one tag.
 */
export const TAG_LIMITS = { maxLength: 32, maxPerItem: 10 } as const;

/** Lower-case letters and digits, then also `-`, `_`, `.` and `:`. */
export const TAG_PATTERN = /^[a-z0-9][a-z0-9_.:-]*$/;

export const TAG_MESSAGES = {
  tag: `A tag is 1 to ${TAG_LIMITS.maxLength} characters: letters, digits, then also - _ . or :`,
  tags: `tags must be a list of at most ${TAG_LIMITS.maxPerItem} tags`,
  bulkAction: 'action must be one of: pause, resume, delete',
} as const;

/** One tag as a client may write it: trimmed and lower-cased, then checked. */
export const tagSchema = z
  .string({ error: TAG_MESSAGES.tag })
  .transform((value) => value.trim().toLowerCase())
  .pipe(
    z
      .string()
      .min(1, { error: TAG_MESSAGES.tag, abort: true })
      .max(TAG_LIMITS.maxLength, { error: TAG_MESSAGES.tag, abort: true })
      .regex(TAG_PATTERN, TAG_MESSAGES.tag),
  );

/**
 * An item's tags: repeated ones (after lower-casing) are kept once, in the
 * order first given, so a list the API answered is accepted back unchanged.
 * The count is checked before the items, so a huge list is refused at once.
 */
export const tagsSchema = z
  .array(z.unknown(), { error: TAG_MESSAGES.tags })
  .max(TAG_LIMITS.maxPerItem, TAG_MESSAGES.tags)
  .pipe(z.array(tagSchema))
  .transform((tags) => [...new Set(tags)])
  .default([]);

/** `?tag=…` on the job and monitor lists: only the items carrying that tag. */
export const tagFilterQuerySchema = z.strictObject(
  { tag: tagSchema.optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown query parameter: ${issue.keys.join(', ')}` : undefined) },
);
export type TagFilterQuery = z.infer<typeof tagFilterQuerySchema>;

export const BULK_TAG_ACTIONS = ['pause', 'resume', 'delete'] as const;
export type BulkTagAction = (typeof BULK_TAG_ACTIONS)[number];

/** `{"action": "pause", "tag": "prod"}`: one action on every job (or monitor) of the caller that carries the tag. */
export const bulkTagActionSchema = z.strictObject(
  {
    action: z.enum(BULK_TAG_ACTIONS, { error: TAG_MESSAGES.bulkAction }),
    tag: tagSchema,
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : issue.code === 'invalid_type' && !issue.path?.length ? 'Request body must be a JSON object' : undefined) },
);
export type BulkTagActionRequest = z.infer<typeof bulkTagActionSchema>;

/**
 * What a bulk action answers: every item that carried the tag, as it is after
 * the action (pause and resume) or as it was before it (delete). Items the
 * action did not change (already paused, not paused) are listed too.
 */
export interface BulkTagActionResult {
  action: BulkTagAction;
  tag: string;
  count: number;
}
export interface JobBulkTagResult<J> extends BulkTagActionResult {
  jobs: J[];
}
export interface MonitorBulkTagResult<M> extends BulkTagActionResult {
  monitors: M[];
}

/** Tags as a form shows them: separated by commas. */
export const tagsToText = (tags: readonly string[]): string => tags.join(', ');

/** Tags as a form's text field holds them (commas or spaces between them); the API checks and lower-cases each. */
export const tagsFromText = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);
