import { signUpAndLogin, type SignedInAccount } from './accounts';
import type { SetupWatch } from './setup-watch';
import { startTestServer, type TestServer } from './test-server';

/**
 * A fresh server with one signed-in account that holds an API key named
 * `keyName`, for suites that call both /api (as the user) and /prog (with the key).
 * With a watch, each step is named to it (see setup-watch.ts).
 */
export async function startServerWithApiKey(
  keyName: string,
  watch?: SetupWatch,
): Promise<{ server: TestServer; user: SignedInAccount; apiKey: string }> {
  const step = <T>(name: string, work: () => Promise<T>) => (watch ? watch.step(name, work) : work());
  const server = await step('start the server (database, migrations, listen)', () => startTestServer());
  watch?.watchServer(server);
  try {
    const user = await step('sign up, verify and log in', () => signUpAndLogin(server));
    const generated = await step('generate an API key', () =>
      server.http.post('/api/api-keys/generate', { name: keyName }, { token: user.accessToken }),
    );
    if (generated.status !== 200) throw new Error(`generating an API key answered ${generated.status}: ${generated.text}`);
    return { server, user, apiKey: generated.body.api_key };
  } catch (error) {
    // The suite never gets the server to close in its afterAll, so close it here; not waiting
    // when the watch gave up, since what it waited for may hold the close up too.
    const closing = server.close();
    if (watch?.expired) closing.catch(() => undefined);
    else await closing;
    throw error;
  }
}
