/**
 * Operator commands, run against a live server through its admin API (so it
 * works while the server holds the embedded database):
 *
 *   npm run admin -- list-users
 *   npm run admin -- set-plan EMAIL PLAN      (free, basic, pro or unlimited)
 *   npm run admin -- require-new-password EMAIL   (a new password at the next sign-in; sessions end now)
 *
 * Reads ADMIN_TOKEN and PUBLIC_URL (default http://localhost:$PORT) from the
 * environment, like the server; `--url http://host:port` (before the command)
 * names the server instead, for one that runs on another port or host.
 */
import { AppConfig } from '../backend/src/config/app-config';
import type { UserView } from '../shared/src/auth/user-view';

const USAGE = 'usage: npm run admin -- [--url URL] list-users | set-plan EMAIL PLAN | require-new-password EMAIL';

class CommandError extends Error {}

async function call<T>(config: AppConfig, baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const token = config.env.ADMIN_TOKEN;
  if (!token) throw new CommandError('ADMIN_TOKEN is not set (the server must run with the same ADMIN_TOKEN)');
  const res = await fetch(`${baseUrl}/api/admin${path}`, {
    method,
    headers: { 'x-admin-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).catch((error: Error) => {
    throw new CommandError(`cannot reach ${baseUrl}: ${error.message} (name the server with --url http://host:port, or set PUBLIC_URL or PORT as the server has them)`);
  });
  const payload = (await res.json().catch(() => ({}))) as { detail?: unknown };
  if (!res.ok) {
    const detail = Array.isArray(payload.detail) ? payload.detail.map((d: { msg: string }) => d.msg).join('; ') : String(payload.detail ?? res.statusText);
    throw new CommandError(`${res.status}: ${detail}`);
  }
  return payload as T;
}

function printUsers(users: UserView[]): void {
  const rows = users.map((u) => [u.email, u.plan, u.email_verified ? 'verified' : 'unverified', u.created_at.slice(0, 10), u.user_id]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), 0));
  for (const row of rows) process.stdout.write(`${row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]) : cell)).join('  ')}\n`);
  process.stdout.write(`${users.length} user${users.length === 1 ? '' : 's'}\n`);
}

async function main(args: string[]): Promise<number> {
  const config = AppConfig.fromEnvironment(process.env);
  let baseUrl = config.publicUrl;
  const urlFlag = args[0] === '--url' ? args.splice(0, 2)[1] : args[0]?.startsWith('--url=') ? args.shift()!.slice('--url='.length) : undefined;
  if (urlFlag !== undefined) {
    if (!/^https?:\/\/[^\s/]+/.test(urlFlag)) throw new CommandError(`--url must be an http(s) URL such as http://localhost:8080, not '${urlFlag}'`);
    baseUrl = urlFlag.replace(/\/+$/, '');
  }
  const [command, ...rest] = args;
  if (command === 'list-users' && rest.length === 0) {
    printUsers(await call<UserView[]>(config, baseUrl, 'GET', '/users'));
    return 0;
  }
  if (command === 'set-plan' && rest.length === 2) {
    const [email, plan] = rest;
    const user = await call<UserView>(config, baseUrl, 'PUT', `/users/${encodeURIComponent(email)}/plan`, { plan });
    process.stdout.write(`${user.email} is now on the ${user.plan} plan\n`);
    return 0;
  }
  if (command === 'require-new-password' && rest.length === 1) {
    await call(config, baseUrl, 'POST', `/users/${encodeURIComponent(rest[0])}/require-new-password`);
    process.stdout.write(`${rest[0]} must choose a new password at the next sign-in\n`);
    return 0;
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
