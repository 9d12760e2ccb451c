import { Client } from 'pg';
import type { Deployment } from '@cronbeam/shared/deployments/deployment-types';
import { FlyMachinesFake, type FlyOperation } from '../fakes/fly-machines';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { openEventStream, type EventStream } from '../support/event-stream';
import type { HttpResult } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually } from './scheduler-fixtures';

jest.setTimeout(120_000);

const N8N_PASSWORD = 'n8n-Secret-Pw-4711';

/** The `deployment` events a stream received so far. */
const deploymentsOf = (stream: EventStream): Deployment[] => stream.named('deployment').map((e) => e.data as Deployment);

describe('n8n deployments on Fly.io (against the Fly Machines stand-in)', () => {
  let fly: FlyMachinesFake;
  let server: TestServer;
  /** Every answer the tests received, to search for the token and the password at the end. */
  const answers: string[] = [];

  const request = async (method: string, path: string, account: SignedInAccount | null, body?: unknown): Promise<HttpResult> => {
    const res = await server.http.request(method, path, { token: account?.accessToken, body });
    answers.push(res.text);
    return res;
  };

  const deployBody = (overrides: Record<string, unknown> = {}) => ({
    fly_token: fly.token,
    username: 'admin',
    password: N8N_PASSWORD,
    region: 'ams',
    ram_mb: 2048,
    ...overrides,
  });

  async function waitFor(account: SignedInAccount, id: string, done: (d: Deployment) => boolean): Promise<Deployment> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await request('GET', `/api/deploy/n8n/${id}`, account);
      expect(res.status).toBe(200);
      if (done(res.body)) return res.body;
      if (Date.now() > deadline) throw new Error(`deployment ${id} stayed ${res.body.status}: ${JSON.stringify(res.body.steps)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const settled = (d: Deployment) => d.status !== 'provisioning';

  async function deploy(account: SignedInAccount, overrides: Record<string, unknown> = {}): Promise<Deployment> {
    const res = await request('POST', '/api/deploy/n8n', account, deployBody(overrides));
    expect(res.status).toBe(202);
    return waitFor(account, res.body.deployment_id, settled);
  }

  /** The mail to `email` whose subject contains `subject`: it is sent after the deployment is stored, so it is waited for. */
  async function mailTo(email: string, subject: string): Promise<{ subject: string; text: string }> {
    return eventually(async () => {
      const outbox = await request('GET', '/api/dev/outbox', null);
      return (outbox.body as Array<{ to: string; subject: string; text: string }>).find((m) => m.to === email && m.subject.includes(subject));
    }, 10_000, `the '${subject}' mail to ${email}`);
  }

  beforeAll(async () => {
    fly = await FlyMachinesFake.start();
    // A short startup deadline so the "n8n never answers" case ends quickly.
    server = await startTestServer({ ...fly.serverEnv(), FLY_STARTUP_TIMEOUT_SECONDS: '4' });
  });

  afterAll(async () => {
    await server?.close();
    await fly?.close();
  });

  beforeEach(() => fly.reset());

  it('requires a bearer token', async () => {
    expect((await request('POST', '/api/deploy/n8n', null, deployBody())).status).toBe(401);
    expect((await request('GET', '/api/deploy/n8n', null)).status).toBe(401);
  });

  it('validates every field with the spec messages, before anything reaches Fly', async () => {
    const alice = await signUpAndLogin(server);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ fly_token: 'short' }, 'fly_token', 'Fly.io token must be at least 10 characters long'],
      [{ fly_token: undefined }, 'fly_token', 'Fly.io token must be at least 10 characters long'],
      [{ username: 'ab' }, 'username', 'Username must be at least 3 characters long'],
      [{ password: '12345' }, 'password', 'Password must be at least 6 characters long'],
      [{ region: 'x' }, 'region', 'Please select a valid region'],
      [{ region: 'xyz' }, 'region', 'Please select a valid region'],
      [{ ram_mb: 256 }, 'ram_mb', 'RAM must be between 512 MB and 8192 MB'],
      [{ ram_mb: 8448 }, 'ram_mb', 'RAM must be between 512 MB and 8192 MB'],
      [{ ram_mb: '2048' }, 'ram_mb', 'RAM must be between 512 MB and 8192 MB'],
      [{ ram_mb: 1000 }, 'ram_mb', 'RAM must be a multiple of 256 MB'],
      [{ app_name: 'Bad_Name!' }, 'app_name', 'Subdomain must be 3-30 characters: lowercase letters, numbers and hyphens, starting with a letter'],
      [{ deployment_name: 'x'.repeat(51) }, 'deployment_name', 'Deployment name must be at most 50 characters'],
    ];
    for (const [override, field, message] of cases) {
      const res = await request('POST', '/api/deploy/n8n', alice, deployBody(override));
      expect({ field, status: res.status }).toEqual({ field, status: 422 });
      expect(res.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', field], msg: message }));
    }
    const notJson = await request('POST', '/api/deploy/n8n', alice, '[1,2]');
    expect(notJson.status).toBe(422);
    expect(fly.requests).toHaveLength(0);
    expect((await request('GET', '/api/deploy/n8n', alice)).body).toEqual([]);
  });

  it('deploys: every step through the real Fly paths, live at its URL, one email with the URL', async () => {
    const alice = await signUpAndLogin(server);
    const started = await request('POST', '/api/deploy/n8n', alice, deployBody({ app_name: 'alice-n8n', deployment_name: 'Team automations', ram_mb: 3072 }));
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ status: 'started', message: expect.stringContaining('alice-n8n'), deployment_id: expect.any(String) });

    const live = await waitFor(alice, started.body.deployment_id, settled);
    expect(live).toMatchObject({
      status: 'live',
      name: 'Team automations',
      app_name: 'alice-n8n',
      url: `${fly.n8nUrl}/alice-n8n`,
      region: 'ams',
      ram_mb: 3072,
      // (16.39 compute + 1.50 volume) × 1.02 for most of Europe.
      estimated_monthly_cost: 18.25,
      failed_step: null,
      error: null,
    });
    expect(live.steps.map((s) => [s.name, s.state])).toEqual([
      ['create_app', 'done'],
      ['allocate_ips', 'done'],
      ['create_volume', 'done'],
      ['create_machine', 'done'],
      ['start_machine', 'done'],
      ['health_check', 'done'],
    ]);
    for (const step of live.steps) expect(Date.parse(step.finished_at!)).toBeGreaterThanOrEqual(Date.parse(step.started_at!));

    expect(fly.inventory()).toEqual([{ app: 'alice-n8n', ips: 2, volumes: 1, machines: 1 }]);
    expect(fly.requests.every((r) => r.authorization === `Bearer ${fly.token}`)).toBe(true);
    expect(fly.calls('createApp')[0].body).toEqual({ app_name: 'alice-n8n', org_slug: 'personal' });
    expect(fly.calls('allocateIp').map((r) => r.body.type).sort()).toEqual(['shared_v4', 'v6']);
    expect(fly.calls('createVolume')[0].body).toEqual({ name: 'n8n_data', region: 'ams', size_gb: 5 });
    const machine = fly.calls('createMachine')[0].body;
    const volumeId = [...fly.apps.get('alice-n8n')!.volumes.keys()][0];
    expect(machine).toMatchObject({
      region: 'ams',
      config: {
        image: 'n8nio/n8n:latest',
        guest: { cpu_kind: 'shared', cpus: 2, memory_mb: 3072 },
        mounts: [{ volume: volumeId, path: '/home/node/.n8n' }],
        env: { N8N_BASIC_AUTH_ACTIVE: 'true', N8N_BASIC_AUTH_USER: 'admin', N8N_BASIC_AUTH_PASSWORD: N8N_PASSWORD },
      },
    });
    expect(machine.config.services[0]).toMatchObject({ internal_port: 5678, ports: expect.arrayContaining([{ port: 443, handlers: ['tls', 'http'] }]) });
    expect(fly.calls('wait')[0].path).toMatch(/\/machines\/[0-9a-f]+\/wait\?state=started&timeout=\d+&instance_id=/);

    const liveMail = await mailTo(alice.email, 'is live');
    expect(liveMail.text).toContain(`${fly.n8nUrl}/alice-n8n`);
    expect(liveMail.text).not.toContain(N8N_PASSWORD);

    const list = await request('GET', '/api/deploy/n8n', alice);
    expect(list.body.map((d: Deployment) => d.deployment_id)).toEqual([live.deployment_id]);
    expect((await request('GET', '/api/dashboard', alice)).body).toMatchObject({ n8n_deployments_used: 1, n8n_deployments_quota: 1 });
  });

  it("pushes every step change to the owner's event stream, and to nobody else's", async () => {
    const owner = await signUpAndLogin(server);
    const stranger = await signUpAndLogin(server);
    const ownerStream = await openEventStream(server, owner.accessToken);
    const strangerStream = await openEventStream(server, stranger.accessToken);
    try {
      const live = await deploy(owner);
      const deadline = Date.now() + 10_000;
      while (!deploymentsOf(ownerStream).some((d) => d.status === 'live') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const seen = deploymentsOf(ownerStream).filter((d) => d.deployment_id === live.deployment_id);
      // Each of the six steps was pushed running, then done, before the deployment went live.
      for (const step of live.steps) {
        const states = seen.map((d) => d.steps.find((s) => s.name === step.name)!.state);
        expect({ step: step.name, running: states.indexOf('running') >= 0 }).toEqual({ step: step.name, running: true });
        expect(states.lastIndexOf('running')).toBeLessThan(states.indexOf('done'));
      }
      expect(seen[seen.length - 1]).toEqual(live);
      expect(deploymentsOf(strangerStream)).toEqual([]);
    } finally {
      await ownerStream.close();
      await strangerStream.close();
    }
  });

  const failures: Array<[string, FlyOperation | 'health', string, string[]]> = [
    ['create_app', 'createApp', 'Fly.io answered 400', []],
    ['allocate_ips', 'allocateIp', 'Fly.io answered 400', ['create_app']],
    ['create_volume', 'createVolume', 'Fly.io answered 400', ['create_app', 'allocate_ips']],
    ['create_machine', 'createMachine', 'Fly.io answered 400', ['create_app', 'allocate_ips', 'create_volume']],
    ['start_machine', 'wait', 'Fly.io answered 400', ['create_app', 'allocate_ips', 'create_volume', 'create_machine']],
    ['health_check', 'health', 'n8n did not answer', ['create_app', 'allocate_ips', 'create_volume', 'create_machine', 'start_machine']],
  ];

  it.each(failures)('a failure at %s leaves nothing on Fly and a clear reason here', async (step, operation, reason, undone) => {
    const bob = await signUpAndLogin(server);
    if (operation === 'health') fly.n8nHealthy = false;
    else fly.fail(operation, 400, 1, { error: `simulated ${operation} refusal` });

    const failed = await deploy(bob);
    expect(failed.status).toBe('failed');
    expect(failed.failed_step).toBe(step);
    expect(failed.error).toContain(reason);
    const states = Object.fromEntries(failed.steps.map((s) => [s.name, s.state]));
    expect(states[step]).toBe('failed');
    expect(failed.steps.find((s) => s.name === step)?.error).toContain(reason);
    for (const name of undone) expect(states[name]).toBe('undone');
    // Nothing half-created stays on the user's Fly account.
    expect(fly.inventory()).toEqual([]);
    if (step !== 'create_app') expect(fly.calls('deleteApp')).toHaveLength(1);
    else expect(fly.calls('deleteApp')).toHaveLength(0);

    expect((await mailTo(bob.email, 'failed')).text).toContain(reason);
    // A failed deployment does not use up the month's quota.
    expect((await request('GET', '/api/dashboard', bob)).body.n8n_deployments_used).toBe(0);
  });

  it('never deletes an app it did not create (subdomain taken)', async () => {
    const carol = await signUpAndLogin(server);
    fly.takenNames.add('taken-name');
    const failed = await deploy(carol, { app_name: 'taken-name' });
    expect(failed).toMatchObject({ status: 'failed', failed_step: 'create_app' });
    expect(failed.error).toContain('Name has already been taken');
    expect(fly.calls('deleteApp')).toHaveLength(0);
    const teardown = await request('DELETE', `/api/deploy/n8n/${failed.deployment_id}`, carol, { fly_token: fly.token });
    expect(teardown.status).toBe(200);
    expect(fly.calls('deleteApp')).toHaveLength(0);
  });

  it('retries 429 and 5xx answers from Fly with backoff, then succeeds', async () => {
    const dave = await signUpAndLogin(server);
    fly.fail('createApp', 429, 2, { error: 'rate limited' }, { 'retry-after': '0' });
    fly.fail('createVolume', 503, 1);
    const live = await deploy(dave);
    expect(live.status).toBe('live');
    expect(fly.calls('createApp')).toHaveLength(3);
    expect(fly.calls('createVolume')).toHaveLength(2);
    expect(fly.inventory()).toHaveLength(1);
  });

  it('enforces the monthly quota with the 403 detail, and the next month frees it', async () => {
    const erin = await signUpAndLogin(server);
    const first = await deploy(erin);
    expect(first.status).toBe('live');
    const refused = await request('POST', '/api/deploy/n8n', erin, deployBody());
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: { error: 'N8N deployment limit exceeded', plan: 'free', deployments_used: 1, deployments_quota: 1 } });
    expect(fly.calls('createApp')).toHaveLength(1);

    // The first deployment moves to last month: this calendar month has room again.
    const db = new Client({ connectionString: server.database.url });
    await db.connect();
    try {
      await db.query(`UPDATE n8n_deployments SET created_at = date_trunc('month', now()) - interval '1 day' WHERE id = $1`, [first.deployment_id]);
    } finally {
      await db.end();
    }
    expect((await request('GET', '/api/dashboard', erin)).body.n8n_deployments_used).toBe(0);
    const next = await request('POST', '/api/deploy/n8n', erin, deployBody());
    expect(next.status).toBe(202);
    await waitFor(erin, next.body.deployment_id, settled);
  });

  it('lets only one of several simultaneous requests through at the limit', async () => {
    const gina = await signUpAndLogin(server);
    const answers = await Promise.all([1, 2, 3].map(() => request('POST', '/api/deploy/n8n', gina, deployBody())));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 403, 403]);
    await waitFor(gina, answers.find((a) => a.status === 202)!.body.deployment_id, settled);
    expect((await request('GET', '/api/deploy/n8n', gina)).body).toHaveLength(1);
  });

  it("keeps deployments per user: another user can neither see nor delete one", async () => {
    const owner = await signUpAndLogin(server);
    const other = await signUpAndLogin(server);
    const live = await deploy(owner);
    const path = `/api/deploy/n8n/${live.deployment_id}`;
    expect((await request('GET', path, other)).status).toBe(404);
    expect((await request('GET', '/api/deploy/n8n', other)).body).toEqual([]);
    const stolen = await request('DELETE', path, other, { fly_token: fly.token });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual({ detail: 'Deployment not found' });
    expect((await request('GET', '/api/deploy/n8n/not-a-uuid', owner)).status).toBe(404);
    expect((await request('GET', path, owner)).body.status).toBe('live');
    expect(fly.inventory()).toHaveLength(1);
  });

  it('tears an instance down with the token supplied again', async () => {
    const frank = await signUpAndLogin(server);
    const live = await deploy(frank);
    const path = `/api/deploy/n8n/${live.deployment_id}`;

    const noToken = await request('DELETE', path, frank, {});
    expect(noToken.status).toBe(422);
    expect(noToken.body.detail[0]).toMatchObject({ loc: ['body', 'fly_token'], msg: 'Fly.io token must be at least 10 characters long' });

    const wrongToken = await request('DELETE', path, frank, { fly_token: 'fo1_not-the-right-one' });
    expect(wrongToken.status).toBe(400);
    expect(wrongToken.body.detail).toContain('Fly.io answered 401');
    expect(fly.inventory()).toHaveLength(1);

    const removed = await request('DELETE', path, frank, { fly_token: fly.token });
    expect(removed.status).toBe(200);
    expect(removed.body.deployment).toMatchObject({ status: 'deleted', deleted_at: expect.any(String) });
    expect(fly.inventory()).toEqual([]);
    const withToken = (op: FlyOperation) => fly.calls(op).filter((r) => r.authorization === `Bearer ${fly.token}`);
    expect(withToken('destroyMachine')).toHaveLength(1);
    expect(withToken('deleteVolume')).toHaveLength(1);
    expect(withToken('deleteApp')).toHaveLength(1);

    expect((await request('DELETE', path, frank, { fly_token: fly.token })).status).toBe(409);
    // A deleted deployment still counts: it was deployed this month.
    expect((await request('GET', '/api/dashboard', frank)).body.n8n_deployments_used).toBe(1);
  });

  it('records a deployment started and deleted in the audit log, the Fly token and the password only as given; a refused teardown leaves none', async () => {
    const hana = await signUpAndLogin(server);
    const entriesOf = async (res: HttpResult) => {
      const db = new Client({ connectionString: server.database.url });
      await db.connect();
      try {
        return (await db.query(`SELECT account_id, actor_user_id, actor_key_id, action, target_type, target_id, changes FROM audit_events WHERE request_id = $1`, [res.headers.get('x-request-id')])).rows;
      } finally {
        await db.end();
      }
    };
    const started = await request('POST', '/api/deploy/n8n', hana, deployBody({ app_name: 'hana-n8n', deployment_name: 'Hana' }));
    expect(started.status).toBe(202);
    expect(await entriesOf(started)).toEqual([
      {
        account_id: hana.userId,
        actor_user_id: hana.userId,
        actor_key_id: null,
        action: 'deployment.created',
        target_type: 'deployment',
        target_id: started.body.deployment_id,
        changes: {
          name: { before: null, after: 'Hana' },
          app_name: { before: null, after: 'hana-n8n' },
          region: { before: null, after: 'ams' },
          ram_mb: { before: null, after: 2048 },
          url: { before: null, after: `${fly.n8nUrl}/hana-n8n` },
          status: { before: null, after: 'provisioning' },
          fly_token: { before: null, after: '***' },
          password: { before: null, after: '***' },
        },
      },
    ]);
    await waitFor(hana, started.body.deployment_id, settled);
    const path = `/api/deploy/n8n/${started.body.deployment_id}`;
    const refused = await request('DELETE', path, hana, { fly_token: 'fo1_not-the-right-one' });
    expect(refused.status).toBe(400);
    expect(await entriesOf(refused)).toEqual([]);
    const removed = await request('DELETE', path, hana, { fly_token: fly.token });
    expect(removed.status).toBe(200);
    expect(await entriesOf(removed)).toEqual([
      expect.objectContaining({ actor_user_id: hana.userId, action: 'deployment.deleted', target_id: started.body.deployment_id, changes: { status: { before: 'live', after: 'deleted' } } }),
    ]);
    const again = await request('DELETE', path, hana, { fly_token: fly.token });
    expect(again.status).toBe(409);
    expect(await entriesOf(again)).toEqual([]);
  });

  it('never stores, logs or returns the Fly token or the n8n password', async () => {
    const db = new Client({ connectionString: server.database.url });
    await db.connect();
    let dump = '';
    try {
      const tables: Array<{ table_name: string }> = (
        await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
      ).rows;
      expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['n8n_deployments', 'n8n_deployment_steps']));
      for (const { table_name } of tables) {
        const rows = await db.query(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
        dump += rows.rows.map((r: { row: string }) => r.row).join('\n');
      }
    } finally {
      await db.end();
    }
    expect(dump).toContain('alice-n8n');
    for (const secret of [fly.token, N8N_PASSWORD]) {
      expect(dump).not.toContain(secret);
      expect(server.logs.text()).not.toContain(secret);
      expect(answers.join('\n')).not.toContain(secret);
    }
    expect(server.logs.text()).toContain('n8n deployment is live');
  });
});

describe('n8n deployments across a restart of our server', () => {
  let fly: FlyMachinesFake;

  beforeAll(async () => {
    fly = await FlyMachinesFake.start();
  });
  afterAll(async () => {
    await fly?.close();
  });

  it('a shutdown in the middle rolls back with the token still in memory; the next start shows why', async () => {
    const { createTestDatabase } = await import('../support/test-database');
    const database = await createTestDatabase(5, { migrated: true });
    let first: TestServer | null = await startTestServer(fly.serverEnv(), database);
    let second: TestServer | null = null;
    try {
      const user = await signUpAndLogin(first);
      const stalled = fly.stall('createMachine');
      const started = await first.http.post('/api/deploy/n8n', { fly_token: fly.token, username: 'admin', password: N8N_PASSWORD, region: 'lax', ram_mb: 1024 }, { token: user.accessToken });
      expect(started.status).toBe(202);
      const deadline = Date.now() + 20_000;
      while (!stalled.reached()) {
        if (Date.now() > deadline) throw new Error('provisioning never reached the machine step');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(fly.inventory()).toEqual([{ app: expect.any(String), ips: 2, volumes: 1, machines: 0 }]);

      await first.close();
      first = null;
      stalled.release();
      // The shutdown undid what was created: nothing is left on Fly.
      expect(fly.inventory()).toEqual([]);

      second = await startTestServer(fly.serverEnv(), database);
      const login = await second.http.post('/api/auth/login', { email: user.email, password: user.password });
      const after = await second.http.get(`/api/deploy/n8n/${started.body.deployment_id}`, { token: login.body.access_token });
      expect(after.body).toMatchObject({ status: 'failed', failed_step: 'create_machine', error: expect.stringContaining('interrupted') });
      expect(after.body.steps.map((s: { state: string }) => s.state)).toEqual(['undone', 'undone', 'undone', 'failed', 'pending', 'pending']);
    } finally {
      await first?.close();
      await second?.close();
      await database.drop();
    }
  });

  it('a deployment abandoned by a crashed instance is failed by the sweep, never left provisioning', async () => {
    const server = await startTestServer({ ...fly.serverEnv(), FLY_PROVISION_STALE_SECONDS: '1' });
    try {
      const user = await signUpAndLogin(server);
      const db = new Client({ connectionString: server.database.url });
      await db.connect();
      let id: string;
      try {
        // What a process killed during create_volume leaves behind: a running step and no heartbeat since.
        // One transaction, as the service writes them: the sweep runs every few hundred milliseconds and
        // must never see the deployment without its steps.
        await db.query('BEGIN');
        id = (
          await db.query(
            `INSERT INTO n8n_deployments (account_id, name, app_name, region, ram_mb, estimated_monthly_cost, url, heartbeat_at)
             VALUES ($1, 'crashed', 'crashed-app', 'lax', 2048, 12.20, 'https://crashed-app.fly.dev', now() - interval '1 hour') RETURNING id`,
            [user.userId],
          )
        ).rows[0].id;
        await db.query(
          `INSERT INTO n8n_deployment_steps (deployment_id, position, name, state, started_at, finished_at)
           VALUES ($1, 1, 'create_app', 'done', now(), now()), ($1, 2, 'allocate_ips', 'done', now(), now()), ($1, 3, 'create_volume', 'running', now(), NULL),
                  ($1, 4, 'create_machine', 'pending', NULL, NULL), ($1, 5, 'start_machine', 'pending', NULL, NULL), ($1, 6, 'health_check', 'pending', NULL, NULL)`,
          [id],
        );
        await db.query('COMMIT');
      } finally {
        await db.end();
      }
      const deadline = Date.now() + 20_000;
      let body: Deployment;
      for (;;) {
        body = (await server.http.get(`/api/deploy/n8n/${id}`, { token: user.accessToken })).body;
        if (body.status !== 'provisioning' || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(body).toMatchObject({ status: 'failed', failed_step: 'create_volume', error: expect.stringContaining('interrupted') });
      expect(body.steps.map((s: { state: string }) => s.state)).toEqual(['done', 'done', 'failed', 'pending', 'pending', 'pending']);
      // The mail is written after the status: wait for it rather than read the outbox once.
      await eventually(
        async () => (await server.http.get('/api/dev/outbox')).body.some((m: { to: string; subject: string }) => m.to === user.email && m.subject.includes('failed')),
        10_000,
        'the "deployment failed" mail',
      );

      // The app it had created is ours: the teardown removes it with the token given again.
      fly.reset();
      fly.apps.set('crashed-app', { name: 'crashed-app', org: 'personal', ips: [], volumes: new Map(), machines: new Map() });
      const removed = await server.http.delete(`/api/deploy/n8n/${id}`, { token: user.accessToken, body: { fly_token: fly.token } });
      expect(removed.status).toBe(200);
      expect(fly.inventory()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
