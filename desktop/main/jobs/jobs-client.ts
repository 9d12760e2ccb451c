import type { Job } from '@cronbeam/shared/jobs/job-types';
import { callServer, type ServerAccess } from '../api/server-call';

/** The job calls the tray makes, with the session's bearer token. */
export class JobsClient {
  constructor(private readonly access: ServerAccess) {}

  list(): Promise<Job[]> {
    return callServer<Job[]>(this.access, 'GET', '/api/jobs');
  }

  runNow(jobId: string): Promise<unknown> {
    return callServer(this.access, 'POST', `/api/jobs/${encodeURIComponent(jobId)}/run`);
  }

  pause(jobId: string): Promise<Job> {
    return callServer<Job>(this.access, 'POST', `/api/jobs/${encodeURIComponent(jobId)}/pause`);
  }
}
