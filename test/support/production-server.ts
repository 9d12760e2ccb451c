import { signUpAndLogin, type SignedInAccount } from './accounts';
import { createTestDatabase } from './test-database';
import { startTestServer, type TestServer } from './test-server';

/**
 * A server in production mode and a user signed in on it. Production has no
 * dev outbox to read the sign-up code from, so the user signs up on a
 * development server on the same database first (with the same settings, so
 * both answer for the same public URL). Closing the server drops the database.
 */
export async function startProductionServerWithUser(env: Record<string, string> = {}): Promise<{ server: TestServer; user: SignedInAccount }> {
  const database = await createTestDatabase(5, { migrated: true });
  const dev = await startTestServer(env, database);
  let user: SignedInAccount;
  try {
    user = await signUpAndLogin(dev);
  } finally {
    await dev.close();
  }
  const server = await startTestServer({ ...env, NODE_ENV: 'production' }, database).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  const close = server.close;
  return {
    server: Object.assign(server, {
      close: async () => {
        await close();
        await database.drop();
      },
    }),
    user,
  };
}
