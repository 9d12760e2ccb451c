import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { setPlan } from '../../api/jobs-fixtures';
import { signUpAndLogin, type SignedInAccount } from '../../support/accounts';
import type { TestServer } from '../../support/test-server';
import type { PlanId } from '../../../shared/src/plans';

export { TEST_ADMIN_TOKEN } from '../../api/jobs-fixtures';

/** A signed-up account with an API key, and the CronbeamApi credential an n8n user would enter for it. */
export interface KeyedAccount {
  account: SignedInAccount;
  credentials: ICredentialDataDecryptedObject;
}

/** Signs up through the real HTTP flow, sets the plan and generates an API key in the dashboard API. */
export async function keyedAccount(server: TestServer, plan: PlanId): Promise<KeyedAccount> {
  const account = await signUpAndLogin(server);
  if (plan !== 'free') await setPlan(server, account.userId, plan);
  const key = await server.http.post('/api/api-keys/generate', { name: 'n8n' }, { token: account.accessToken });
  if (key.status !== 200 && key.status !== 201) throw new Error(`generate key answered ${key.status}: ${key.text}`);
  return { account, credentials: { baseUrl: `${server.baseUrl}/`, apiKey: key.body.api_key, userId: key.body.user_id } };
}
