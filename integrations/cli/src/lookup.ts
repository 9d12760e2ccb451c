import { unwrap, type CronbeamClient, type Job, type Monitor } from '@cronbeam/sdk';
import { CliError, EXIT } from './exit-codes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job named by its id or its name (names are unique per user, compared without case). */
export async function findJob(client: CronbeamClient, idOrName: string): Promise<Job> {
  if (UUID.test(idOrName)) return unwrap(client.GET('/prog/jobs/{job_id}', { params: { path: { job_id: idOrName } } }));
  const wanted = idOrName.toLowerCase();
  const job = (await unwrap(client.GET('/prog/jobs'))).find((candidate) => candidate.name.toLowerCase() === wanted);
  if (!job) throw new CliError(`No job named '${idOrName}'`, EXIT.notFound);
  return job;
}

/** A monitor named by its id or its name (the first with that name, oldest first). */
export async function findMonitor(client: CronbeamClient, idOrName: string): Promise<Monitor> {
  if (UUID.test(idOrName)) return unwrap(client.GET('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: idOrName } } }));
  const monitor = (await unwrap(client.GET('/prog/monitors'))).find((candidate) => candidate.name === idOrName);
  if (!monitor) throw new CliError(`No monitor named '${idOrName}'`, EXIT.notFound);
  return monitor;
}

/** The last part of a monitor's ping URL: what the ping routes take. */
export function pingToken(monitor: Monitor): string {
  return new URL(monitor.ping_url).pathname.split('/').pop() ?? '';
}
