import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startProductionServerWithUser } from '../support/production-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition } from './jobs-fixtures';

jest.setTimeout(120_000);

const PRIVATE = 'URL must not point to a private, loopback or link-local address';
const METADATA_URLS = [
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://METADATA.GOOGLE.INTERNAL./computeMetadata/v1/',
  'http://metadata.goog/',
  'http://instance-data/latest/meta-data/',
  'http://instance-data.ec2.internal/latest/',
  'http://metadata/computeMetadata/v1/',
];

/**
 * Saving a job and test-running a definition apply one target policy: what
 * one refuses the other refuses, what the operator allowlists both accept.
 */
describe('one target policy for job creation and test runs (production)', () => {
  let server: TestServer;
  let target: HttpTarget;
  let user: SignedInAccount;
  let localhostUrl: string;

  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/probe', (_req, res) => res.end('ok'));
    localhostUrl = `http://localhost:${new URL(target.url).port}/probe`;
    ({ server, user } = await startProductionServerWithUser({ PUBLIC_URL: 'https://cronbeam.example', PRIVATE_TARGET_ALLOWLIST: 'localhost' }));
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  const create = (url: string) => server.http.post('/api/jobs', jobDefinition({ url }), { token: user.accessToken });
  const testRun = (url: string) => server.http.post('/api/jobs/test', { url, method: 'GET' }, { token: user.accessToken });

  it('accepts an allowlisted localhost on creation and on a test run, which reaches it', async () => {
    expect((await create(localhostUrl)).status).toBe(200);
    const before = target.requests('/probe').length;
    const run = await testRun(localhostUrl);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'success', response_code: 200 });
    expect(target.requests('/probe').length).toBe(before + 1);
  });

  it.each(['http://127.0.0.1:1/x', 'http://10.0.0.1/x', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/x', 'http://api.localhost/x', ...METADATA_URLS])(
    'refuses %s the same way on creation and on a test run, before anything is sent',
    async (url) => {
      for (const res of [await create(url), await testRun(url)]) {
        expect(res.status).toBe(422);
        expect(res.body.detail).toEqual([{ loc: ['body', 'url'], msg: PRIVATE, type: 'value_error' }]);
      }
    },
  );
});

describe('cloud metadata names outside production', () => {
  let server: TestServer;
  let user: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer();
    user = await signUpAndLogin(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(METADATA_URLS)('refuses %s at creation and for a test run', async (url) => {
    const created = await server.http.post('/api/jobs', jobDefinition({ url }), { token: user.accessToken });
    const tested = await server.http.post('/api/jobs/test', { url }, { token: user.accessToken });
    for (const res of [created, tested]) {
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ['body', 'url'], msg: PRIVATE, type: 'value_error' }]);
    }
  });
});
