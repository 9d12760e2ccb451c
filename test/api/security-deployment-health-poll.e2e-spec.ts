import type { Deployment } from '@cronbeam/shared/deployments/deployment-types';
import { FlyMachinesFake } from '../fakes/fly-machines';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(120_000);

/**
 * The n8n machine a deployment starts is the user's to replace; its health
 * endpoint must not be able to send the server's health poll elsewhere (here
 * a listener on the server's own loopback, standing for its internal network).
 */
describe('security: the n8n health poll follows no redirect', () => {
  let fly: FlyMachinesFake;
  let internal: HttpTarget;
  let server: TestServer;
  let user: SignedInAccount;

  beforeAll(async () => {
    [fly, internal] = await Promise.all([FlyMachinesFake.start(), HttpTarget.start()]);
    server = await startTestServer({ ...fly.serverEnv(), FLY_STARTUP_TIMEOUT_SECONDS: '2' });
    user = await signUpAndLogin(server);
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([fly?.close(), internal?.close()]);
  });

  async function settled(id: string): Promise<Deployment> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await server.http.get<Deployment>(`/api/deploy/n8n/${id}`, { token: user.accessToken });
      expect(res.status).toBe(200);
      if (res.body.status !== 'provisioning') return res.body;
      if (Date.now() > deadline) throw new Error(`deployment ${id} stayed ${res.body.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('fails the health check on a redirect, never asking where it points, and rolls back', async () => {
    fly.n8nRedirect = `${internal.url}/admin/healthz`;
    const started = await server.http.post(
      '/api/deploy/n8n',
      { fly_token: fly.token, username: 'admin', password: 'n8n-Secret-Pw-4711', region: 'ams', ram_mb: 2048, app_name: 'redirecting-n8n' },
      { token: user.accessToken },
    );
    expect(started.status).toBe(202);

    const failed = await settled(started.body.deployment_id);
    expect(failed).toMatchObject({ status: 'failed', failed_step: 'health_check' });
    expect(failed.error).toContain('(last: HTTP 302, a redirect, not followed)');
    expect(internal.received).toHaveLength(0);
    expect(fly.inventory()).toEqual([]);
  });
});
