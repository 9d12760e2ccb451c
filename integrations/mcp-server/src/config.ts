/**
 * Settings read once from the environment. Nothing here throws: a missing or
 * malformed value is remembered and reported by every tool that needs it, so
 * an assistant sees a clear message instead of a server that will not start.
 */
export interface CronbeamSettings {
  /** Origin (and optional path prefix) of the Cronbeam API, without a trailing slash. */
  baseUrl: string;
  apiKey: string | null;
  userId: string | null;
  /** Why the /prog API cannot be called with these settings; empty when it can. */
  problems: string[];
  /** The URL's problem alone (it also stops the unauthenticated ping). */
  urlProblem: string | null;
  /** Per-call timeout; run-now waits for the target, so it is generous. */
  timeoutMs: number;
}

export const DEFAULT_CRONBEAM_URL = 'http://localhost:3000';
const DEFAULT_TIMEOUT_MS = 60_000;

export const CONFIG_MESSAGES = {
  missingKey:
    'CRONBEAM_API_KEY is not set. Generate an API key on the Cronbeam profile page (API Keys) and add it, with CRONBEAM_USER_ID, to the env of this MCP server in your assistant\'s configuration.',
  badUrl: (value: string) => `CRONBEAM_URL '${value}' is not an http:// or https:// URL (example: https://api.cronbeam.example).`,
  badKey: 'CRONBEAM_API_KEY contains spaces or line breaks; paste the key exactly as shown when it was generated.',
  badTimeout: (value: string) => `CRONBEAM_TIMEOUT_MS '${value}' must be a whole number of milliseconds from 1000 to 600000.`,
} as const;

function parseBaseUrl(raw: string | undefined, problems: string[]): string {
  const value = raw?.trim() || DEFAULT_CRONBEAM_URL;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    // Users paste the API base with or without /prog; requests add it themselves.
    return `${url.origin}${url.pathname.replace(/(?<!\/)\/+$/, '').replace(/\/prog$/, '')}`;
  } catch {
    problems.push(CONFIG_MESSAGES.badUrl(value));
    return value;
  }
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): CronbeamSettings {
  const problems: string[] = [];
  const baseUrl = parseBaseUrl(env.CRONBEAM_URL, problems);
  const urlProblem = problems[0] ?? null;
  const apiKey = env.CRONBEAM_API_KEY?.trim() || null;
  if (!apiKey) problems.push(CONFIG_MESSAGES.missingKey);
  else if (/\s/.test(apiKey)) problems.push(CONFIG_MESSAGES.badKey);
  const userId = env.CRONBEAM_USER_ID?.trim() || null;
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (env.CRONBEAM_TIMEOUT_MS !== undefined && env.CRONBEAM_TIMEOUT_MS.trim() !== '') {
    const parsed = Number(env.CRONBEAM_TIMEOUT_MS);
    if (Number.isInteger(parsed) && parsed >= 1000 && parsed <= 600_000) timeoutMs = parsed;
    else problems.push(CONFIG_MESSAGES.badTimeout(env.CRONBEAM_TIMEOUT_MS));
  }
  return { baseUrl, apiKey, userId, problems, urlProblem, timeoutMs };
}
