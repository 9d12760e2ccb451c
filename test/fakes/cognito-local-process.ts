import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { CognitoIdentityProviderClient, CreateUserPoolClientCommand, CreateUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { freePort } from '../support/free-port';


/**
 * `cognito-local` (a stand-in for the AWS Cognito API, from npm) in a child
 * process with its own data directory. It "delivers" codes by printing them;
 * this class reads its output to find the code sent to an address.
 */
export class CognitoLocalProcess {
  private readonly output: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly dataDir: string,
    readonly endpoint: string,
  ) {
    createInterface({ input: child.stdout! }).on('line', (line) => this.output.push(stripVTControlCharacters(line)));
  }

  static async start(): Promise<CognitoLocalProcess> {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cognito-local-'));
    mkdirSync(path.join(dataDir, '.cognito'));
    writeFileSync(
      path.join(dataDir, '.cognito', 'config.json'),
      JSON.stringify({ TokenConfig: { IssuerDomain: endpoint }, ServerConfig: { hostname: '127.0.0.1', port } }),
    );
    const child = spawn(process.execPath, [require.resolve('cognito-local/lib/bin/start.js')], {
      cwd: dataDir,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const fake = new CognitoLocalProcess(child, dataDir, endpoint);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`cognito-local did not start within 30 s:\n${fake.output.join('\n')}`)), 30_000);
      child.once('exit', (code) => reject(new Error(`cognito-local exited with ${code}:\n${fake.output.join('\n')}`)));
      const poll = setInterval(() => {
        if (fake.output.some((l) => l.includes('Cognito Local running on'))) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve();
        }
      }, 50);
    });
    return fake;
  }

  /** A user pool with email as the user name and an app client allowing password and refresh-token sign-in. */
  async createPool(callbackUrl: string): Promise<{ userPoolId: string; clientId: string }> {
    const admin = new CognitoIdentityProviderClient({
      region: 'local',
      endpoint: this.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      const pool = await admin.send(
        new CreateUserPoolCommand({ PoolName: 'cronbeam-test', UsernameAttributes: ['email'], AutoVerifiedAttributes: ['email'] }),
      );
      const client = await admin.send(
        new CreateUserPoolClientCommand({
          UserPoolId: pool.UserPool!.Id!,
          ClientName: 'cronbeam-web',
          ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
          CallbackURLs: [callbackUrl],
        }),
      );
      return { userPoolId: pool.UserPool!.Id!, clientId: client.UserPoolClient!.ClientId! };
    } finally {
      admin.destroy();
    }
  }

  /** The settings that point a Cronbeam server at this process and one of its pools, in Cognito mode. */
  serverEnv(pool: { userPoolId: string; clientId: string }, publicUrl: string): Record<string, string> {
    return {
      PUBLIC_URL: publicUrl,
      AUTH_PROVIDER: 'cognito',
      COGNITO_REGION: 'local',
      COGNITO_USER_POOL_ID: pool.userPoolId,
      COGNITO_CLIENT_ID: pool.clientId,
      COGNITO_ENDPOINT: this.endpoint,
    };
  }

  /** The newest code cognito-local printed for the address. */
  codeSentTo(email: string): string {
    for (let i = this.output.length - 1; i >= 0; i--) {
      if (!this.output[i].includes(`Destination: ${email}`)) continue;
      for (const line of this.output.slice(i, i + 4)) {
        const code = line.match(/Code:\s+(\d{6})/)?.[1];
        if (code) return code;
      }
    }
    throw new Error(`cognito-local printed no code for ${email}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
