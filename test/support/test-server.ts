import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../backend/src/bootstrap';
import { AppConfig } from '../../backend/src/config/app-config';
import { AuditCheck } from './audit-check';
import { HttpClient } from './http-client';
import { LogCapture } from './log-capture';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestServer {
  baseUrl: string;
  app: NestFastifyApplication;
  config: AppConfig;
  database: TestDatabase;
  logs: LogCapture;
  http: HttpClient;
  /** Every route the app's router was given, as Fastify added it (methods upper-case, the path with :params). */
  routes: Array<{ methods: string[]; url: string }>;
  /**
   * Checks the audit log for the changes sent so far, now: for a test whose
   * requests outside `http` may delete the account (and its entries with it).
   */
  auditCheckpoint(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Settings every test server gets unless a test overrides them. The scheduler
 * is off unless a test asks for it (FAST_SCHEDULER_ENV does): a job a test
 * creates may fall due at the next minute boundary while the test runs, and
 * a run it fires would change what the test reads.
 */
const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  SCHEDULER_ENABLED: 'false',
  LOG_LEVEL: 'debug',
  HOST: '127.0.0.1',
  PORT: '0',
  DATABASE_POOL_SIZE: '5',
  // A fixed, public key for tests only: servers a test starts with NODE_ENV=production need one, and restarts read what was sealed.
  ENCRYPTION_KEY: 'dGVzdC1vbmx5IGtleSwgbmV2ZXIgdXNlIGl0IGFnYWk=',
  // Every account a test creates signs up from 127.0.0.1; the sign-up throttle has its own test.
  AUTH_MAX_SIGNUPS_PER_IP: '100000',
};

/**
 * Boots the real Nest application on a random loopback port, on a database of
 * its own, with its logs captured. Tests talk to it over HTTP only.
 */
export async function startTestServer(env: Record<string, string> = {}, database?: TestDatabase): Promise<TestServer> {
  const db = database ?? (await createTestDatabase(5, { migrated: true }));
  const config = AppConfig.fromEnvironment({ ...TEST_ENV, ...env, DATABASE_URL: db.url });
  const logs = new LogCapture();
  const app = await createApp(config, { databaseUrl: db.url, logDestination: logs });
  const routes: TestServer['routes'] = [];
  // Nest adds its routes when the app starts listening.
  app.getHttpAdapter().getInstance().addHook('onRoute', (route) => {
    routes.push({ methods: ([] as string[]).concat(route.method), url: route.url ?? '' });
  });
  try {
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    // A start that fails half-way has already started timers and pools: stop them, or they
    // outlive the test file and keep jest from exiting.
    await app.close().catch(() => undefined);
    if (!database) await db.drop().catch(() => undefined);
    throw error;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const audit = new AuditCheck();
  const mismatches: string[] = [];
  // Deleting a user (their accounts) or a team account deletes the account's audit entries with it.
  const deletesAnAccount = (method: string, path: string) => method.toUpperCase() === 'DELETE' && /^\/api\/accounts?(\/[^/?]+)?(\?|$)/.test(path);
  return {
    baseUrl,
    app,
    routes,
    config,
    database: db,
    logs,
    http: new HttpClient(
      baseUrl,
      (...answer) => audit.record(...answer),
      async (method, path) => {
        if (deletesAnAccount(method, path)) mismatches.push(...(await audit.takeMismatches(app)));
      },
    ),
    auditCheckpoint: async () => {
      mismatches.push(...(await audit.takeMismatches(app)));
    },
    close: async () => {
      try {
        mismatches.push(...(await audit.takeMismatches(app)));
      } finally {
        await app.close();
        if (!database) await db.drop();
      }
      if (mismatches.length > 0) throw new Error(`Audit log: every change answered 2xx leaves exactly one entry, a refused one none:\n${mismatches.join('\n')}`);
    },
  };
}
