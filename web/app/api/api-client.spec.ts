import { installFakeApi } from '../test-support/fake-api';
import { useSession } from '../session/session-store';
import { apiRequest, setUnauthorizedHandler } from './api-client';
import { ApiRequestError, messageForDetail } from './api-error';
import { ERROR_TEXT, cleanAuthMessage, scrubSecrets } from './error-messages';
import { withRetry } from './retry';

const signIn = () => useSession.getState().signIn({ access_token: 'access-1', id_token: 'id-1', expires_in: 3600 });

describe('API client and error mapping', () => {
  let lost: string[];
  beforeEach(() => {
    lost = [];
    setUnauthorizedHandler((message) => lost.push(message));
    signIn();
  });

  it('sends the bearer token of the session and parses JSON', async () => {
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [{ job_id: 'j1' }] } });
    await expect(apiRequest('GET', '/jobs')).resolves.toEqual([{ job_id: 'j1' }]);
    expect(calls[0].headers.authorization).toBe('Bearer access-1');
  });

  it('ends the session on a 401 with the spec message', async () => {
    installFakeApi({ 'GET /jobs': { status: 401, body: { detail: 'Invalid or expired token' } } });
    const failure = await apiRequest('GET', '/jobs').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as Error).message).toBe('Your session has expired. Please login again.');
    expect(lost).toEqual(['Your session has expired. Please login again.']);
  });

  it('reports a 401 of the logs API without ending the session', async () => {
    installFakeApi({ 'GET /jobs/j1/logs': { status: 401, body: { detail: 'x' } } });
    await expect(apiRequest('GET', '/jobs/j1/logs', { on401: 'report' })).rejects.toThrow('Authentication failed for logs API');
    expect(lost).toEqual([]);
  });

  it('says authentication is required without a token, without calling the server', async () => {
    useSession.getState().clear();
    const { calls } = installFakeApi({});
    await expect(apiRequest('GET', '/jobs')).rejects.toThrow('Authentication required');
    await expect(apiRequest('GET', '/jobs/j1/logs', { on401: 'report' })).rejects.toThrow('Authentication required for logs');
    expect(calls).toHaveLength(0);
  });

  it('maps the job limit 403 to the upgrade message and keeps its details', async () => {
    const detail = { error: 'Job limit exceeded', plan: 'free', job_count: 2, max_jobs: 2 };
    installFakeApi({ 'POST /jobs': { status: 403, body: { detail } } });
    const failure = (await apiRequest('POST', '/jobs', { body: {} }).catch((e: unknown) => e)) as ApiRequestError;
    expect(failure.message).toBe('You have reached your job limit. Please upgrade your plan to create more jobs.');
    expect(failure.jobLimit).toEqual(detail);
  });

  it('keeps the field issues of a 422 and shows their messages', async () => {
    const detail = [{ loc: ['body', 'name'], msg: 'Name is required', type: 'custom' }];
    installFakeApi({ 'POST /jobs': { status: 422, body: { detail } } });
    const failure = (await apiRequest('POST', '/jobs', { body: {} }).catch((e: unknown) => e)) as ApiRequestError;
    expect(failure.fieldIssues).toEqual(detail);
    expect(failure.message).toBe('Name is required');
  });

  it("falls back to 'An error occurred' and names an unreachable backend", async () => {
    installFakeApi({ 'GET /jobs': { status: 500 }, 'GET /ping': 'network-error' });
    await expect(apiRequest('GET', '/jobs')).rejects.toThrow('An error occurred');
    await expect(apiRequest('GET', '/ping', { auth: false })).rejects.toThrow(ERROR_TEXT.backendUnreachable);
  });

  it('scrubs secret words from server messages but keeps the catalogue texts', () => {
    expect(scrubSecrets('Invalid API key or token for secret credentials; password wrong')).toBe(
      'Invalid API *** or *** for *** ***; *** wrong',
    );
    expect(messageForDetail('Bad refresh token')).toBe('Bad refresh ***');
    expect(messageForDetail('Incorrect email or password')).toBe('Incorrect email or password');
    // The app's own validation texts stay whole, in a 422's field issues too.
    expect(messageForDetail([{ loc: ['body', 'password'], msg: 'Password must be at least 8 characters' }])).toBe('Password must be at least 8 characters');
    expect(messageForDetail('Please enter a name for the API key')).toBe('Please enter a name for the API key');
    expect(messageForDetail(undefined)).toBe('An error occurred');
  });

  it('cleans identity provider prefixes and encodings', () => {
    expect(cleanAuthMessage('PreSignUp failed with error Email+domain+not+allowed.')).toBe('Email domain not allowed.');
    expect(cleanAuthMessage('Login failed: Password attempts exceeded')).toBe('Too many failed attempts. Please try again later.');
  });
});

describe('retry helper', () => {
  it('makes 4 attempts, waiting 1 s and doubling, then gives up with the last error', async () => {
    const waits: number[] = [];
    let attempts = 0;
    const failing = () => {
      attempts += 1;
      return Promise.reject(new Error(`attempt ${attempts}`));
    };
    await expect(withRetry(failing, { sleep: async (ms) => void waits.push(ms) })).rejects.toThrow('attempt 4');
    expect(attempts).toBe(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('stops at the first success and skips failures not worth retrying', async () => {
    let attempts = 0;
    const flaky = () => (++attempts < 2 ? Promise.reject(new Error('again')) : Promise.resolve('ok'));
    await expect(withRetry(flaky, { sleep: async () => undefined })).resolves.toBe('ok');
    expect(attempts).toBe(2);
    const fatal = jest.fn(() => Promise.reject(new Error('no')));
    await expect(withRetry(fatal, { shouldRetry: () => false })).rejects.toThrow('no');
    expect(fatal).toHaveBeenCalledTimes(1);
  });
});
