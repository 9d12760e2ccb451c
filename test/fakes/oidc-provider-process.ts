import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

export interface OidcAccount {
  sub: string;
  email: string;
  name: string;
  email_verified?: boolean;
}

/** The local OpenID provider (test/fakes/oidc-provider.mjs) running in a child process. */
export class OidcProviderProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  static async start(redirectUri: string): Promise<OidcProviderProcess> {
    const clientId = 'cronbeam-test-client';
    const clientSecret = 'oidc-client-secret-Zx9';
    const child = spawn(process.execPath, [path.join(__dirname, 'oidc-provider.mjs')], {
      env: { ...process.env, CLIENT_ID: clientId, CLIENT_SECRET: clientSecret, REDIRECT_URI: redirectUri, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const issuer = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the OpenID provider did not start within 20 s')), 20_000);
      child.once('exit', (code) => reject(new Error(`the OpenID provider exited with ${code}`)));
      createInterface({ input: child.stdout! }).once('line', (line) => {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { issuer: string }).issuer);
      });
    });
    return new OidcProviderProcess(child, issuer, clientId, clientSecret);
  }

  /** Who the provider signs in on the next authorization request. */
  async signInNextAs(account: OidcAccount): Promise<void> {
    const res = await fetch(`${this.issuer}/_test/next-account`, { method: 'POST', body: JSON.stringify({ email_verified: true, ...account }) });
    if (res.status !== 204) throw new Error(`next-account answered ${res.status}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
