import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createApp } from '../../backend/src/bootstrap';
import { AppConfig } from '../../backend/src/config/app-config';
import { openDatabase } from '../../backend/src/database/database-endpoint';
import { runServerProcess, startServerProcess } from '../support/server-process';

describe('process start-up and shutdown', () => {
  it('refuses to start on a malformed PORT and names the variable', async () => {
    const run = runServerProcess({ PORT: 'abc' });
    const code = await run.exitCode();
    expect(code).not.toBe(0);
    expect(run.output()).toMatch(/PORT: expected a whole number/);
  });

  it('refuses a DATABASE_URL that is not a postgres URL without echoing it', async () => {
    const run = runServerProcess({ DATABASE_URL: 'mysql://root:s3cretpw@db/x' });
    expect(await run.exitCode()).not.toBe(0);
    expect(run.output()).toContain('DATABASE_URL');
    expect(run.output()).not.toContain('s3cretpw');
  });

  it('stops cleanly on SIGTERM, and starts again on the same data directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-data-'));
    try {
      for (let round = 0; round < 2; round++) {
        // Ready means /api/ready answered 200; it fails with the server's output if the process exits first.
        const run = await startServerProcess({ DATA_DIR: dataDir });
        expect((await fetch(`${run.url}/api/ready`)).status).toBe(200);
        run.child.kill('SIGTERM');
        expect(await run.exitCode()).toBe(0);
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
