import { startTestServer, type TestServer } from '../support/test-server';

// The api project's testTimeout is not applied to single-file runs; booting on the embedded database takes seconds.
jest.setTimeout(60_000);

/** Mail without SMTP_URL: the dev outbox (table + log line), visible over HTTP outside production only. */
describe('mail dev outbox', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps mail in the outbox, newest first, and logs recipient and subject but never the body', async () => {
    await server.http.post('/api/auth/signup', { name: 'First', email: 'first@example.test', password: 'first-password' });
    await new Promise((r) => setTimeout(r, 20));
    await server.http.post('/api/auth/signup', { name: 'Second', email: 'second@example.test', password: 'second-password' });

    const outbox = await server.http.get('/api/dev/outbox');
    expect(outbox.status).toBe(200);
    expect(outbox.body.map((m: { to: string }) => m.to)).toEqual(['second@example.test', 'first@example.test']);
    const [newest] = outbox.body;
    expect(Object.keys(newest).sort()).toEqual(['created_at', 'subject', 'text', 'to']);
    expect(new Date(newest.created_at).toISOString()).toBe(newest.created_at);

    const lines = server.logs.entries().filter((e) => e.msg === 'Mail stored in the dev outbox (SMTP_URL is not set)');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ to: 'second@example.test', subject: newest.subject });
    const code = newest.text.match(/\b\d{6}\b/)[0];
    expect(server.logs.text()).not.toContain(code);
    expect(server.logs.text()).not.toContain(newest.text.split('\n')[2]);
  });
});

describe('mail dev outbox in production', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ NODE_ENV: 'production', PUBLIC_URL: 'https://cronbeam.example' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is not served', async () => {
    expect((await server.http.get('/api/dev/outbox')).status).toBe(404);
  });
});
