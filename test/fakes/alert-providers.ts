import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedRequest } from './http-target';

/** A request a stand-in accepted, with its body as parsed by the provider's rules. */
export interface Accepted<T> {
  request: ReceivedRequest;
  body: T;
}

export interface TelegramMessage {
  chat_id: string | number;
  text: string;
}

export interface PagerDutyEvent {
  routing_key: string;
  event_action: 'trigger' | 'acknowledge' | 'resolve';
  dedup_key?: string;
  payload?: { summary: string; source: string; severity: string; timestamp?: string; custom_details?: Record<string, unknown> };
}

export interface NtfyMessage {
  topic: string;
  message: string;
  title: string | undefined;
  priority: string | undefined;
  tags: string | undefined;
}

export interface AlertmanagerAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  fingerprint?: string;
}

export interface AlertmanagerPayload {
  version: string;
  groupKey: string;
  status: 'firing' | 'resolved';
  receiver: string;
  alerts: AlertmanagerAlert[];
}

export interface OpsgenieRequest {
  action: 'create' | 'close';
  /** The alias a close names (in its path), or the one a create gives. */
  alias: string;
  message?: string;
  priority?: string;
  note?: string;
}

export interface TeamsCard {
  type: 'AdaptiveCard';
  body: Array<{ type: string; text?: string }>;
}

/**
 * Local stand-ins for the alerting services, on one HTTP server, each taking
 * its provider's documented request and refusing what the provider refuses
 * (with the provider's status and error shape), so a wrong field fails a test
 * the way it would fail in production:
 * - Telegram Bot API: POST /bot<token>/sendMessage, JSON `chat_id` and `text`
 *   (1 to 4096 characters); an unknown token is 401, a missing field 400.
 * - PagerDuty Events API v2: POST /v2/enqueue with `routing_key` (32
 *   characters), `event_action` trigger|acknowledge|resolve, `dedup_key`, and
 *   for a trigger `payload` with summary, source and severity
 *   (critical|error|warning|info); 202 with the dedup key, 400 "invalid event".
 *   It keeps incidents by dedup key, as PagerDuty does.
 * - ntfy: POST /ntfy/<topic> (a server under a path, as self-hosted ones may be) with the message as body and Title, Priority and
 *   Tags headers; a protected topic wants `Authorization: Bearer <token>`.
 * - Microsoft Teams incoming webhook: a `message` with one Adaptive Card attachment.
 * - An Alertmanager webhook receiver: the version 4 payload.
 * - Opsgenie Alert API v2: POST /v2/alerts (create: `message` 1 to 130
 *   characters, `alias` up to 512, `priority` P1 to P5) and POST
 *   /v2/alerts/<alias>/close?identifierType=alias, with `Authorization:
 *   GenieKey <key>` (401 otherwise); 202 "Request will be processed". It keeps
 *   alerts by alias, open or closed, as Opsgenie does.
 */
export class AlertProviders {
  readonly telegram: Array<Accepted<TelegramMessage>> = [];
  readonly pagerDuty: Array<Accepted<PagerDutyEvent>> = [];
  /** PagerDuty's view: each dedup key's incident, open (triggered) or resolved. */
  readonly incidents = new Map<string, 'triggered' | 'resolved'>();
  readonly ntfy: Array<Accepted<NtfyMessage>> = [];
  readonly teams: Array<Accepted<TeamsCard>> = [];
  readonly alertmanager: Array<Accepted<AlertmanagerPayload>> = [];
  readonly opsgenie: Array<Accepted<OpsgenieRequest>> = [];
  /** Opsgenie's view: each alias's alert, open or closed. */
  readonly opsgenieAlerts = new Map<string, 'open' | 'closed'>();
  /** Every request, accepted or refused. */
  readonly received: ReceivedRequest[] = [];
  private readonly waiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    /** The bot tokens Telegram knows. */
    private readonly botTokens: Set<string>,
    /** ntfy topics that need an access token, with it. */
    private readonly ntfyTokens: Map<string, string>,
    /** Bearer token the Alertmanager receiver wants, if any. */
    private readonly alertmanagerToken: string | null,
    /** The API keys Opsgenie knows. */
    private readonly genieKeys: Set<string>,
  ) {}

  static async start(options: { botTokens: string[]; ntfyTokens?: Record<string, string>; alertmanagerToken?: string; genieKeys?: string[] }): Promise<AlertProviders> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const providers = new AlertProviders(server, `http://127.0.0.1:${port}`, new Set(options.botTokens), new Map(Object.entries(options.ntfyTokens ?? {})), options.alertmanagerToken ?? null, new Set(options.genieKeys ?? []));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = { arrivedAt: Date.now(), method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        providers.received.push(request);
        providers.dispatch(request, res);
        for (const wake of providers.waiters.splice(0)) wake();
      });
    });
    return providers;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits (checking on each arrival) until `read()` has `count` entries, and answers them. */
  async waitFor<T>(read: () => T[], count: number, timeoutMs = 15_000): Promise<T[]> {
    const deadline = Date.now() + timeoutMs;
    while (read().length < count) {
      if (Date.now() > deadline) throw new Error(`stand-in: ${read().length} of ${count} accepted requests after ${timeoutMs} ms; received ${JSON.stringify(this.received.map((r) => `${r.method} ${r.path}`))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return read();
  }

  private dispatch(req: ReceivedRequest, res: ServerResponse): void {
    const path = req.path.split('?')[0]!;
    const telegram = /^\/bot([^/]+)\/sendMessage$/.exec(path);
    if (telegram) return this.telegramSendMessage(decodeURIComponent(telegram[1]!), req, res);
    if (path === '/v2/enqueue') return this.pagerDutyEnqueue(req, res);
    if (path.startsWith('/webhookb2/')) return this.teamsWebhook(req, res);
    if (path === '/alertmanager') return this.alertmanagerWebhook(req, res);
    if (path === '/v2/alerts' || path.startsWith('/v2/alerts/')) return this.opsgenieAlertApi(path, req, res);
    const topic = /^\/ntfy\/([-_A-Za-z0-9]{1,64})$/.exec(path);
    if (topic) return this.ntfyPublish(topic[1]!, req, res);
    reply(res, 404, { error: 'not found' });
  }

  private telegramSendMessage(token: string, req: ReceivedRequest, res: ServerResponse): void {
    if (req.method !== 'POST' && req.method !== 'GET') return reply(res, 405, { ok: false, error_code: 405, description: 'Method Not Allowed' });
    if (!this.botTokens.has(token)) return reply(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const body = parseJson(req);
    if (!isJsonRequest(req) || !body) return reply(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
    if (body.chat_id === undefined || body.chat_id === '') return reply(res, 400, { ok: false, error_code: 400, description: 'Bad Request: chat_id is empty' });
    if (typeof body.text !== 'string' || body.text.length === 0) return reply(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
    if (body.text.length > 4096) return reply(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
    this.telegram.push({ request: req, body: body as unknown as TelegramMessage });
    reply(res, 200, { ok: true, result: { message_id: this.telegram.length, chat: { id: body.chat_id, type: 'private' }, date: Math.floor(Date.now() / 1000), text: body.text } });
  }

  private pagerDutyEnqueue(req: ReceivedRequest, res: ServerResponse): void {
    const body = parseJson(req);
    const errors: string[] = [];
    if (!isJsonRequest(req) || !body) errors.push('Event object is invalid');
    else {
      if (typeof body.routing_key !== 'string' || body.routing_key.length !== 32) errors.push("Length of 'routing_key' is incorrect (should be 32 characters)");
      if (!['trigger', 'acknowledge', 'resolve'].includes(String(body.event_action))) errors.push("'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')");
      if (body.event_action !== 'trigger' && typeof body.dedup_key !== 'string') errors.push("'dedup_key' is missing or blank");
      if (typeof body.dedup_key === 'string' && body.dedup_key.length > 255) errors.push("'dedup_key' is too long");
      if (body.event_action === 'trigger') {
        const payload = (body.payload ?? {}) as Record<string, unknown>;
        if (typeof payload.summary !== 'string' || !payload.summary || payload.summary.length > 1024) errors.push("'payload.summary' is missing or blank");
        if (typeof payload.source !== 'string' || !payload.source) errors.push("'payload.source' is missing or blank");
        if (!['critical', 'error', 'warning', 'info'].includes(String(payload.severity))) errors.push("'payload.severity' is invalid (must be one of: critical, error, warning, info)");
      }
    }
    if (errors.length > 0) return reply(res, 400, { status: 'invalid event', message: 'Event object is invalid', errors });
    const event = body as unknown as PagerDutyEvent;
    this.pagerDuty.push({ request: req, body: event });
    const dedupKey = event.dedup_key ?? `generated-${this.pagerDuty.length}`;
    // A resolve for a key with no open incident is accepted and does nothing, as PagerDuty does.
    if (event.event_action === 'trigger') this.incidents.set(dedupKey, 'triggered');
    else if (event.event_action === 'resolve' && this.incidents.get(dedupKey) === 'triggered') this.incidents.set(dedupKey, 'resolved');
    reply(res, 202, { status: 'success', message: 'Event processed', dedup_key: dedupKey });
  }

  private ntfyPublish(topic: string, req: ReceivedRequest, res: ServerResponse): void {
    if (req.method !== 'POST' && req.method !== 'PUT') return reply(res, 405, { code: 40500, http: 405, error: 'method not allowed' });
    const wanted = this.ntfyTokens.get(topic);
    if (wanted !== undefined && req.headers.authorization !== `Bearer ${wanted}`) return reply(res, req.headers.authorization ? 403 : 401, { code: 40301, http: 403, error: 'forbidden' });
    const header = (name: string) => (req.headers[name] === undefined ? undefined : String(req.headers[name]));
    const priority = header('priority') ?? header('x-priority');
    if (priority !== undefined && !['1', '2', '3', '4', '5', 'min', 'low', 'default', 'high', 'max', 'urgent'].includes(priority)) return reply(res, 400, { code: 40007, http: 400, error: 'invalid priority' });
    const message: NtfyMessage = { topic, message: req.body, title: header('title') ?? header('x-title'), priority, tags: header('tags') ?? header('x-tags') };
    this.ntfy.push({ request: req, body: message });
    reply(res, 200, { id: `m${this.ntfy.length}`, time: Math.floor(Date.now() / 1000), event: 'message', topic, message: req.body, title: message.title });
  }

  private teamsWebhook(req: ReceivedRequest, res: ServerResponse): void {
    const body = parseJson(req);
    const attachment = Array.isArray(body?.attachments) ? (body.attachments[0] as Record<string, unknown> | undefined) : undefined;
    const card = attachment?.content as Record<string, unknown> | undefined;
    const valid = isJsonRequest(req) && body?.type === 'message' && attachment?.contentType === 'application/vnd.microsoft.card.adaptive' && card?.type === 'AdaptiveCard' && Array.isArray(card.body);
    if (!valid) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Bad payload received by generic incoming webhook.');
      return;
    }
    this.teams.push({ request: req, body: card as unknown as TeamsCard });
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('1');
  }

  private opsgenieAlertApi(path: string, req: ReceivedRequest, res: ServerResponse): void {
    const answer = (status: number, message: string) => reply(res, status, { message, took: 0.001, requestId: `r${this.received.length}` });
    if (req.method !== 'POST') return answer(405, 'Method not allowed');
    const key = /^GenieKey (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!key || !this.genieKeys.has(key)) return answer(401, 'Could not authenticate');
    const body = parseJson(req);
    if (!isJsonRequest(req) || !body) return answer(422, 'Request body is not processable');
    const close = /^\/v2\/alerts\/([^/]+)\/close$/.exec(path);
    if (close) {
      const identifierType = new URLSearchParams(req.path.split('?')[1] ?? '').get('identifierType') ?? 'id';
      if (identifierType !== 'alias') return answer(422, 'identifierType must be alias for these alerts');
      const alias = decodeURIComponent(close[1]!);
      this.opsgenie.push({ request: req, body: { action: 'close', alias, note: typeof body.note === 'string' ? body.note : undefined } });
      if (this.opsgenieAlerts.get(alias) === 'open') this.opsgenieAlerts.set(alias, 'closed');
      return reply(res, 202, { result: 'Request will be processed', took: 0.001, requestId: `r${this.received.length}` });
    }
    if (path !== '/v2/alerts') return answer(404, 'Not found');
    if (typeof body.message !== 'string' || body.message.length === 0 || body.message.length > 130) return answer(422, 'Message can not be empty or longer than 130 characters');
    if (body.alias !== undefined && (typeof body.alias !== 'string' || body.alias.length > 512)) return answer(422, 'Alias can not be longer than 512 characters');
    if (body.priority !== undefined && !['P1', 'P2', 'P3', 'P4', 'P5'].includes(String(body.priority))) return answer(422, 'Priority should be one of P1, P2, P3, P4, P5');
    const alias = typeof body.alias === 'string' ? body.alias : `generated-${this.opsgenie.length}`;
    this.opsgenie.push({ request: req, body: { action: 'create', alias, message: body.message, priority: body.priority as string | undefined } });
    this.opsgenieAlerts.set(alias, 'open');
    reply(res, 202, { result: 'Request will be processed', took: 0.001, requestId: `r${this.received.length}` });
  }

  private alertmanagerWebhook(req: ReceivedRequest, res: ServerResponse): void {
    if (this.alertmanagerToken && req.headers.authorization !== `Bearer ${this.alertmanagerToken}`) return reply(res, 401, { error: 'unauthorized' });
    const body = parseJson(req);
    const alerts = Array.isArray(body?.alerts) ? (body.alerts as Array<Record<string, unknown>>) : null;
    const isTime = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
    const valid =
      isJsonRequest(req) &&
      body?.version === '4' &&
      typeof body.groupKey === 'string' &&
      ['firing', 'resolved'].includes(String(body.status)) &&
      alerts !== null &&
      alerts.length > 0 &&
      alerts.every((a) => ['firing', 'resolved'].includes(String(a.status)) && typeof a.labels === 'object' && typeof (a.labels as Record<string, unknown>).alertname === 'string' && isTime(a.startsAt) && isTime(a.endsAt));
    if (!valid) return reply(res, 400, { error: 'not an Alertmanager webhook payload (version 4)' });
    this.alertmanager.push({ request: req, body: body as unknown as AlertmanagerPayload });
    reply(res, 200, { status: 'ok' });
  }
}

function isJsonRequest(req: ReceivedRequest): boolean {
  return String(req.headers['content-type'] ?? '').startsWith('application/json');
}

function parseJson(req: ReceivedRequest): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(req.body);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
