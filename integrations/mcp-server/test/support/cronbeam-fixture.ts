import type { PlanId } from '@cronbeam/shared/plans';
import { signUpAndLogin, type SignedInAccount } from '../../../../test/support/accounts';
import type { TestServer } from '../../../../test/support/test-server';

/** Operator token the MCP tests start Cronbeam with, to change plans through /api/admin. */
export const ADMIN_TOKEN = 'mcp-tests-admin-token-0123456789';

export interface ApiUser {
  account: SignedInAccount;
  apiKey: string;
  /** The environment an assistant's configuration would give the MCP server for this user. */
  env: Record<string, string>;
}

/** A verified user with an API key generated through the dashboard API, on the given plan. */
export async function apiUser(server: TestServer, plan: PlanId = 'free'): Promise<ApiUser> {
  const account = await signUpAndLogin(server);
  if (plan !== 'free') {
    const res = await server.http.put(`/api/admin/users/${account.userId}/plan`, { plan }, { headers: { 'x-admin-token': ADMIN_TOKEN } });
    if (res.status !== 200) throw new Error(`set plan answered ${res.status}: ${res.text}`);
  }
  const key = await server.http.post('/api/api-keys/generate', { name: 'mcp' }, { token: account.accessToken });
  if (key.status !== 200) throw new Error(`key generation answered ${key.status}: ${key.text}`);
  return { account, apiKey: key.body.api_key, env: { CRONBEAM_URL: server.baseUrl, CRONBEAM_API_KEY: key.body.api_key, CRONBEAM_USER_ID: account.userId } };
}

/** A /prog call made directly (not through MCP), to check what the tools did. */
export function progAs(user: ApiUser) {
  return { headers: { 'X-API-Key': user.apiKey, 'X-User-ID': user.account.userId } };
}
