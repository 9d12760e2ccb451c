import type { ICredentialDataDecryptedObject, ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';
import { apiErrorMessage, normalizeBaseUrl } from './api';

interface LegacyFullResponse {
  statusCode: number;
  body: unknown;
}

/**
 * Checks a CronbeamApi credential in two steps: GET /prog/ping (no key) must
 * answer `pong`, so a wrong base URL or an unreachable service is reported as
 * such; then GET /prog/jobs with the key and user id must be accepted. n8n
 * gives credential tests only the request-style helper, so the two headers
 * the credential's `authenticate` adds are set here by hand.
 */
export async function testCronbeamCredentials(
  this: ICredentialTestFunctions,
  credential: ICredentialsDecrypted<ICredentialDataDecryptedObject>,
): Promise<INodeCredentialTestResult> {
  const data = credential.data ?? {};
  const baseUrl = normalizeBaseUrl(data.baseUrl);
  if (!/^https?:\/\/[^/]+/i.test(baseUrl)) {
    return { status: 'Error', message: 'Base URL must start with http:// or https://, for example https://app.cronbeam.io' };
  }

  const get = async (path: string, headers: Record<string, string> = {}): Promise<LegacyFullResponse> =>
    // eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions -- the only request helper n8n gives credential tests.
    (await this.helpers.request({ uri: `${baseUrl}${path}`, method: 'GET', headers, json: true, resolveWithFullResponse: true, simple: false })) as LegacyFullResponse;

  let ping: LegacyFullResponse;
  try {
    ping = await get('/prog/ping');
  } catch (error) {
    return { status: 'Error', message: `Cronbeam did not answer at ${baseUrl}/prog/ping: ${(error as Error).message}` };
  }
  if (ping.statusCode !== 200 || (ping.body as { message?: unknown } | null)?.message !== 'pong') {
    return { status: 'Error', message: `${baseUrl} is not a Cronbeam API: /prog/ping answered ${ping.statusCode}` };
  }

  let jobs: LegacyFullResponse;
  try {
    jobs = await get('/prog/jobs', { 'X-API-Key': String(data.apiKey ?? ''), 'X-User-ID': String(data.userId ?? '') });
  } catch (error) {
    return { status: 'Error', message: `Cronbeam did not answer at ${baseUrl}/prog/jobs: ${(error as Error).message}` };
  }
  if (jobs.statusCode !== 200) {
    return { status: 'Error', message: apiErrorMessage(jobs.body) ?? `Cronbeam answered ${jobs.statusCode} to GET /prog/jobs` };
  }
  return { status: 'OK', message: 'Connection successful' };
}
