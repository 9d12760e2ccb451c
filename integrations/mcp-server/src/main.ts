import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readSettings } from './config';
import { startHttpServer } from './http-server';
import { createCronbeamServer } from './server';
import { SERVER_VERSION } from './version';

const USAGE = `Usage: cronbeam-mcp [--http PORT] [--host HOST] [--allow-origin ORIGIN ...]

Runs the Cronbeam MCP server. Without options it speaks MCP over stdio (for
Claude Desktop, Cursor, VS Code). With --http it serves the Streamable HTTP
transport at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1). Browser
requests are accepted from pages on this machine only, and from each
--allow-origin (e.g. https://assistant.example).

Environment: CRONBEAM_URL (default http://localhost:3000), CRONBEAM_API_KEY,
CRONBEAM_USER_ID, CRONBEAM_TIMEOUT_MS (default 60000).`;

interface Options {
  http: number | null;
  host: string;
  allowedOrigins: string[];
}

function parseArgs(argv: string[]): Options | string {
  const options: Options = { http: null, host: '127.0.0.1', allowedOrigins: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--http') {
      const value = argv[++i];
      const port = Number(value);
      if (!value || !Number.isInteger(port) || port < 0 || port > 65535) return `--http needs a port number from 0 to 65535 (got '${value ?? ''}')`;
      options.http = port;
    } else if (arg === '--host') {
      const value = argv[++i];
      if (!value) return '--host needs a host name or address';
      options.host = value;
    } else if (arg === '--allow-origin') {
      const value = argv[++i];
      const parsed = value && URL.canParse(value) ? new URL(value) : null;
      if (!parsed || parsed.origin !== value.replace(/\/$/, '')) return `--allow-origin needs an origin such as https://assistant.example (got '${value ?? ''}')`;
      options.allowedOrigins.push(parsed.origin);
    } else {
      return `Unknown option '${arg}'`;
    }
  }
  return options;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (argv.includes('--version')) {
    process.stdout.write(`${SERVER_VERSION}\n`);
    return;
  }
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    console.error(`cronbeam-mcp: ${options}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const settings = readSettings();
  // Configuration problems are reported by each tool call too; this line helps whoever reads the client's log.
  for (const problem of settings.problems) console.error(`cronbeam-mcp: ${problem}`);

  if (options.http === null) {
    const server = createCronbeamServer(settings);
    await server.connect(new StdioServerTransport());
    const stop = () => void server.close().finally(() => process.exit(0));
    process.stdin.once('end', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return;
  }

  if (!['127.0.0.1', '::1', 'localhost'].includes(options.host)) {
    console.error(`cronbeam-mcp: listening on ${options.host}: anyone who can reach it acts with this server's API key; put authentication in front of it.`);
  }
  const running = await startHttpServer(() => createCronbeamServer(settings), options.http, options.host, options.allowedOrigins);
  console.error(`cronbeam-mcp: Streamable HTTP on ${running.url}`);
  const stop = () => void running.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`cronbeam-mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
