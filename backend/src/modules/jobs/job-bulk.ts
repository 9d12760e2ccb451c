import { z } from 'zod';
import { jobDefinitionSchema } from '@cronbeam/shared/jobs/job-rules';
import type { Job } from '@cronbeam/shared/jobs/job-types';

/** Most jobs one bulk request may create (imports larger than this are sent in several requests). */
export const JOB_BULK_MAX = 1_000;

export const JOB_BULK_MESSAGES = {
  empty: 'Send at least one job',
  tooMany: `Send at most ${JOB_BULK_MAX} jobs per request; split larger imports into several requests`,
} as const;

/**
 * `{"jobs": [definition, ...]}`. The count is checked before any item, so an
 * oversized request is refused with one clear issue; then each item is a job
 * definition, and an issue names it by index (`['body', 'jobs', 3, 'url']`).
 */
export const jobBulkRequestSchema = z.object({
  jobs: z
    .array(z.unknown(), { error: 'jobs must be a list of job definitions' })
    .min(1, JOB_BULK_MESSAGES.empty)
    .max(JOB_BULK_MAX, JOB_BULK_MESSAGES.tooMany)
    .pipe(z.array(jobDefinitionSchema)),
});

export type JobBulkRequest = z.infer<typeof jobBulkRequestSchema>;

/** The created jobs, in the order they were sent. */
export interface JobBulkResult {
  created: number;
  jobs: Job[];
}

/** The request paths of bulk creation (they take a larger JSON body than other routes). */
export const JOB_BULK_PATHS = ['/api/jobs/bulk', '/prog/jobs/bulk'] as const;

/** Largest bulk body in bytes (4 MiB): a thousand ordinary definitions fit with room to spare; other routes keep the smaller limit. */
export const JOB_BULK_BODY_LIMIT = 4 * 1024 * 1024;
