import type { Job } from '@cronbeam/shared/jobs/job-types';
import { CronbeamError } from '../api/cronbeam-errors';
import type { ProgClient } from '../api/prog-client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Finds a job by id or by name. Assistants usually know a job by the name the
 * user said, so tools accept both; a name is looked up in the key owner's list
 * (names are unique per account, ignoring case).
 */
export async function findJob(client: ProgClient, reference: string): Promise<Job> {
  const ref = reference.trim();
  if (UUID.test(ref)) {
    try {
      return await client.getJob(ref);
    } catch (error) {
      // A name may look like an id; fall back to the name before giving up.
      if (!(error instanceof CronbeamError && error.kind === 'not_found')) throw error;
    }
  }
  const jobs = await client.listJobs();
  const match = jobs.find((job) => job.name.toLowerCase() === ref.toLowerCase());
  if (match) return match;
  const shown = jobs.slice(0, 20).map((job) => `${job.name} (${job.job_id})`);
  if (jobs.length > shown.length) shown.push(`and ${jobs.length - shown.length} more`);
  const known = jobs.length > 0 ? ` Jobs of this account: ${shown.join(', ')}.` : ' This account has no jobs yet.';
  throw new CronbeamError('not_found', `No job with the id or name '${ref}' belongs to this API key's account.${known}`, 404);
}
