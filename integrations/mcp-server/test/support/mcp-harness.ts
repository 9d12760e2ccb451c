import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const PACKAGE_DIR = resolve(__dirname, '../..');

/**
 * Builds the package's bin with its own build script into a directory of this
 * test file (inside the package, so the bundle resolves its dependencies from
 * node_modules as an installed package would) and removes it afterwards.
 */
export class BuiltServer {
  private constructor(
    readonly binPath: string,
    private readonly dir: string,
  ) {}

  static build(): BuiltServer {
    const dir = join(PACKAGE_DIR, 'dist', `.test-${process.pid}-${randomBytes(3).toString('hex')}`);
    const binPath = join(dir, 'cronbeam-mcp.js');
    execFileSync(process.execPath, [join(PACKAGE_DIR, 'build.mjs'), binPath], { stdio: 'pipe' });
    return new BuiltServer(binPath, dir);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export type TransportKind = 'stdio' | 'http';

export interface McpConnection {
  client: Client;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'cronbeam-mcp-tests', version: '1.0.0' };

/** The server started over stdio by the SDK's own client transport, as Claude Desktop does. */
export async function connectStdio(bin: BuiltServer, env: Record<string, string>): Promise<McpConnection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin.binPath], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** A server process started with `--http 0`; its URL is read from the line it prints. */
export class HttpServerProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    private readonly output: { text: string },
  ) {}

  static async start(bin: BuiltServer, env: Record<string, string>, args: string[] = ['--http', '0']): Promise<HttpServerProcess> {
    const child = spawn(process.execPath, [bin.binPath, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const output = { text: '' };
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed within 20 s: ${output.text}`)), 20_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        output.text += chunk.toString('utf8');
        const match = /Streamable HTTP on (\S+)/.exec(output.text);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code}) before listening: ${output.text}`));
      });
    });
    return new HttpServerProcess(child, url, output);
  }

  stderr(): string {
    return this.output.text;
  }

  async connect(): Promise<McpConnection> {
    const client = new Client(CLIENT_INFO);
    await client.connect(new StreamableHTTPClientTransport(new URL(this.url)));
    return { client, stderr: () => this.stderr(), close: () => client.close() };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((done) => this.child.once('exit', done));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** The text of a tool result's first content block. */
export function resultText(result: CallToolResult | Record<string, unknown>): string {
  const content = (result as CallToolResult).content;
  const first = content?.[0];
  return first && first.type === 'text' ? first.text : '';
}

/** Calls a tool and returns the result as the client received it (structured content checked by the client against the output schema). */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
