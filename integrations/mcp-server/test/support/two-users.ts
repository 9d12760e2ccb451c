import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../../../../test/support/test-server';
import { ADMIN_TOKEN, apiUser, type ApiUser } from './cronbeam-fixture';
import { BuiltServer, connectStdio, type McpConnection } from './mcp-harness';

/** A running Cronbeam, the built MCP server, and two users each with an assistant connected over stdio. */
export interface TwoUsersOverStdio {
  cronbeam: TestServer;
  /** On the Pro plan. */
  alice: ApiUser;
  /** On the Free plan: the other account whose data alice's tools must never reach. */
  bob: ApiUser;
  client: Client;
  bobClient: Client;
  close(): Promise<void>;
}

/** The set-up of the resource tool suites (monitors, maintenance windows): one place for it and its teardown. */
export async function twoUsersOverStdio(): Promise<TwoUsersOverStdio> {
  const bin = BuiltServer.build();
  const cronbeam = await startTestServer({ ADMIN_TOKEN, PROG_RATE_LIMIT: '250' });
  const connections: McpConnection[] = [];
  const close = async () => {
    await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
    await cronbeam.close();
    bin.remove();
  };
  try {
    const [alice, bob] = await Promise.all([apiUser(cronbeam, 'pro'), apiUser(cronbeam, 'free')]);
    for (const user of [alice, bob]) connections.push(await connectStdio(bin, user.env));
    return { cronbeam, alice, bob, client: connections[0]!.client, bobClient: connections[1]!.client, close };
  } catch (error) {
    await close();
    throw error;
  }
}
