import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createApp } from '../../backend/src/bootstrap';
import { AppConfig } from '../../backend/src/config/app-config';
import { openDatabase } from '../../backend/src/database/database-endpoint';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the real entry point (TypeScript through SWC) as `npm start` would, with the given environment. */
function runServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'backend/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SWC_NODE_PROJECT: 'tsconfig.backend.json', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForPing(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/ping`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on port ${port} did not answer /api/ping within ${ms} ms`);
}

describe('process start-up and shutdown', () => {
  it('refuses to start on a malformed PORT and names the variable', async () => {
    const run = runServer({ PORT: 'abc' });
    const code = await run.exited;
    expect(code).not.toBe(0);
    expect(run.output()).toMatch(/PORT: expected a whole number/);
  });

  it('refuses a DATABASE_URL that is not a postgres URL without echoing it', async () => {
    const run = runServer({ DATABASE_URL: 'mysql://root:s3cretpw@db/x' });
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toContain('DATABASE_URL');
    expect(run.output()).not.toContain('s3cretpw');
  });

  it('stops cleanly on SIGTERM, and starts again on the same data directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-data-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const env = { PORT: String(port), DATA_DIR: dataDir };
    try {
      for (let round = 0; round < 2; round++) {
        const run = runServer(env);
        await waitForPing(port, 30_000);
        expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);
        run.child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
      }
      expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('keeps rows written to the embedded database across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-data-'));
    const config = AppConfig.fromEnvironment({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    // Whatever was started is stopped in `finally`, also when a step fails: a server left running would keep
    // its timers and its embedded database busy in this worker for the test files that follow.
    const running: Array<{ stop: () => Promise<unknown> }> = [];
    const boot = async () => {
      const db = await openDatabase(config);
      running.push({ stop: () => db.close() });
      const app = await createApp(config, { databaseUrl: db.url });
      running.push({ stop: () => app.close() });
      await app.init();
      return { db, app };
    };
    const stopAll = async () => {
      while (running.length > 0) await running.pop()!.stop().catch(() => undefined);
    };
    try {
      const first = await boot();
      const client = new Client({ connectionString: first.db.url });
      await client.connect();
      await client.query(`INSERT INTO instance_settings (key, value) VALUES ('restart_probe', '"kept"')`);
      const before = await client.query(`SELECT value FROM instance_settings WHERE key = 'instance_id'`);
      await client.end();
      await stopAll();

      const second = await boot();
      const again = new Client({ connectionString: second.db.url });
      await again.connect();
      const probe = await again.query(`SELECT value FROM instance_settings WHERE key = 'restart_probe'`);
      const after = await again.query(`SELECT value FROM instance_settings WHERE key = 'instance_id'`);
      await again.end();
      await stopAll();
      expect(probe.rows).toEqual([{ value: 'kept' }]);
      expect(after.rows[0].value).toBe(before.rows[0].value);
    } finally {
      await stopAll();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Two starts of the embedded database (each 10-35 s on a busy 2-core machine), as the test above.
  }, 90_000);
});
