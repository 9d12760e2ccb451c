import { randomUUID } from 'node:crypto';
import { ACCOUNT_MESSAGES, roleRefusal } from '@cronbeam/shared/accounts/account-messages';
import { ACCOUNT_ROLES, roleAtLeast, type AccountRole } from '@cronbeam/shared/accounts/roles';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { sql } from './jobs-fixtures';

jest.setTimeout(600_000);

/**
 * Every authenticated route of the app × every role, generated from the
 * running server's two OpenAPI documents (which the server builds from the
 * same decorators its router and role guard read, and which other suites
 * hold to the router): each operation's `x-minimum-role` says who may call
 * it. A role below it must get 403 with the role's refusal, before any
 * validation (the requests carry empty bodies and unknown ids); a role at or
 * above it must get anything else. A user who is not a member gets the
 * account's 404 on every account route; routes about the user themself
 * serve every role and non-members alike.
 */

type RouteRole = AccountRole | 'user';

interface Operation {
  method: string;
  path: string;
  role: RouteRole;
}

interface Answer {
  status: number;
  body: unknown;
}

/** Operations that end what the rest of the matrix stands on (the session, the user, the account): allowed calls to them get a fixture of their own. */
const ENDS_THE_FIXTURE = new Set(['delete /api/account', 'post /api/auth/global-sign-out', 'delete /api/accounts/{accountId}', 'delete /api/accounts/{accountId}/membership']);

function operationsOf(document: { paths: Record<string, Record<string, { security?: unknown[]; 'x-minimum-role'?: RouteRole }>> }): Operation[] {
  const found: Operation[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!operation.security?.length) continue;
      const role = operation['x-minimum-role'];
      // The operator's routes act in no account; every other authenticated one must say its role.
      if (role === undefined && JSON.stringify(operation.security).includes('AdminToken')) continue;
      found.push({ method, path, role: role as RouteRole });
    }
  }
  return found;
}

describe('role matrix: every authenticated route × every role', () => {
  let server: TestServer;
  let apiOperations: Operation[];
  let progOperations: Operation[];

  beforeAll(async () => {
    // Billing routes refuse before authentication without a Stripe key: a key pointing nowhere lets the role guard answer.
    server = await startTestServer({ STRIPE_SECRET_KEY: 'sk_test_role_matrix', STRIPE_API_BASE: 'http://127.0.0.1:9' });
    apiOperations = operationsOf((await server.http.get('/api/openapi.json')).body);
    progOperations = operationsOf((await server.http.get('/prog/openapi.json')).body);
  });

  afterAll(async () => {
    await server?.close();
  });

  /** One request; an event stream is answered by its status alone (it never ends). */
  async function call(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
    const concrete = path.replace(/\{(\w+)\}/g, (_whole, name: string) => headers[`x-path-${name}`] ?? randomUUID());
    const sent = Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('x-path-')));
    const abort = new AbortController();
    const res = await fetch(server.baseUrl + concrete, {
      method: method.toUpperCase(),
      headers: { ...sent, 'content-type': 'application/json' },
      body: ['get', 'head', 'delete'].includes(method) ? undefined : '{}',
      signal: abort.signal,
    });
    if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      abort.abort();
      return { status: res.status, body: null };
    }
    const text = await res.text();
    return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
  }

  /** A team account with one member of each role (the owner its creator). */
  async function team(): Promise<{ accountId: string; members: Record<AccountRole, SignedInAccount> }> {
    const owner = await signUpAndLogin(server);
    const accountId = (await server.http.post('/api/accounts', { name: 'Matrix' }, { token: owner.accessToken })).body.id as string;
    const members = { owner } as Record<AccountRole, SignedInAccount>;
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      const member = await signUpAndLogin(server);
      // Joining through an invitation has its own suite (accounts-members); here the membership is planted.
      await sql(server, `INSERT INTO account_members (account_id, user_id, role) VALUES ($1, $2, $3)`, [accountId, member.userId, role]);
      members[role] = member;
    }
    // The matrix may delete the account (its audit entries with it) by a request the test server does not see: check what was sent so far now.
    await server.auditCheckpoint();
    return { accountId, members };
  }

  const bearer = (user: SignedInAccount, accountId: string) => ({ authorization: `Bearer ${user.accessToken}`, 'x-cronbeam-account': accountId, 'x-path-accountId': accountId });

  function expectDecision(operation: Operation, role: AccountRole, answer: Answer): void {
    const key = `${operation.method} ${operation.path} as ${role}`;
    if (operation.role !== 'user' && !roleAtLeast(role, operation.role)) {
      expect({ key, status: answer.status, body: answer.body }).toEqual({ key, status: 403, body: { detail: roleRefusal(role) } });
    } else {
      expect({ key, refused: answer.status === 403 && JSON.stringify(answer.body) === JSON.stringify({ detail: roleRefusal(role) }) }).toEqual({ key, refused: false });
      expect({ key, notFound: JSON.stringify(answer.body) === JSON.stringify({ detail: ACCOUNT_MESSAGES.accountNotFound }) }).toEqual({ key, notFound: false });
      expect({ key, status: answer.status }).not.toEqual({ key, status: 401 });
    }
  }

  it('finds the routes in the documents: every authenticated one states a role, and the account routes are there', () => {
    expect(apiOperations.length).toBeGreaterThan(60);
    expect(progOperations.length).toBeGreaterThan(25);
    for (const operation of [...apiOperations, ...progOperations]) expect([operation.path, ['user', ...ACCOUNT_ROLES].includes(operation.role)]).toEqual([operation.path, true]);
    const roles = Object.fromEntries(apiOperations.map((o) => [`${o.method} ${o.path}`, o.role]));
    expect(roles).toMatchObject({
      'get /api/jobs': 'viewer',
      'post /api/jobs': 'editor',
      'post /api/accounts/{accountId}/invitations': 'admin',
      'patch /api/accounts/{accountId}/members/{userId}': 'admin',
      'post /api/accounts/{accountId}/transfer': 'owner',
      'delete /api/accounts/{accountId}': 'owner',
      'post /api/stripe/create-checkout-session': 'owner',
      'get /api/accounts': 'user',
      'post /api/invitations/accept': 'user',
      'delete /api/account': 'user',
    });
  });

  it('/api: each role is refused below each route\'s role and served at or above it', async () => {
    const { accountId, members } = await team();
    const [lasting, ending] = [apiOperations.filter((o) => !ENDS_THE_FIXTURE.has(`${o.method} ${o.path}`)), apiOperations.filter((o) => ENDS_THE_FIXTURE.has(`${o.method} ${o.path}`))];
    for (const operation of lasting) {
      for (const role of ACCOUNT_ROLES) expectDecision(operation, role, await call(operation.method, operation.path, bearer(members[role], accountId)));
    }
    for (const operation of ending) {
      for (const role of ACCOUNT_ROLES) {
        // Refusals change nothing; an allowed call may end the user, the session or the account, so it gets a team of its own.
        const allowed = operation.role === 'user' || roleAtLeast(role, operation.role);
        const fixture = allowed ? await team() : { accountId, members };
        expectDecision(operation, role, await call(operation.method, operation.path, bearer(fixture.members[role], fixture.accountId)));
      }
    }
  });

  it('/api: a user who is not a member gets the same 404 on every account route, whether the account exists or not', async () => {
    const { accountId } = await team();
    const outsider = await signUpAndLogin(server);
    for (const target of [accountId, randomUUID()]) {
      for (const operation of apiOperations.filter((o) => o.role !== 'user')) {
        const answer = await call(operation.method, operation.path, bearer(outsider, target));
        expect({ key: `${operation.method} ${operation.path}`, status: answer.status, body: answer.body }).toEqual({
          key: `${operation.method} ${operation.path}`,
          status: 404,
          body: { detail: ACCOUNT_MESSAGES.accountNotFound },
        });
      }
    }
  });

  it('/prog: an API key acts with its maker\'s current role in the key\'s account', async () => {
    const keys = {} as Record<AccountRole, string>;
    for (const role of ACCOUNT_ROLES) {
      const user = await signUpAndLogin(server);
      const generated = await server.http.post('/api/api-keys/generate', { name: `matrix-${role}` }, { token: user.accessToken });
      expect(generated.status).toBe(200);
      // The maker's role in the key's account (their personal one) changes after the key was made: the key follows it.
      if (role !== 'owner') await sql(server, `UPDATE account_members SET role = $3 WHERE account_id = $1 AND user_id = $2`, [generated.body.user_id, user.userId, role]);
      keys[role] = generated.body.api_key;
    }
    for (const operation of progOperations) {
      for (const role of ACCOUNT_ROLES) expectDecision(operation, role, await call(operation.method, operation.path, { authorization: `Bearer ${keys[role]}` }));
    }
  });
});
