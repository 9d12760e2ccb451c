import { signUpAndLogin, type SignedInAccount } from './accounts';
import { startTestServer, type TestServer } from './test-server';

/**
 * A fresh server with one signed-in account that holds an API key named
 * `keyName`, for suites that call both /api (as the user) and /prog (with the key).
 */
export async function startServerWithApiKey(keyName: string): Promise<{ server: TestServer; user: SignedInAccount; apiKey: string }> {
  const server = await startTestServer();
  try {
    const user = await signUpAndLogin(server);
    const generated = await server.http.post('/api/api-keys/generate', { name: keyName }, { token: user.accessToken });
    if (generated.status !== 200) throw new Error(`generating an API key answered ${generated.status}: ${generated.text}`);
    return { server, user, apiKey: generated.body.api_key };
  } catch (error) {
    // The suite never gets the server to close in its afterAll, so close it here.
    await server.close();
    throw error;
  }
}
