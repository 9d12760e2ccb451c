import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The Machines API operations the stand-in can be told to fail or stall. */
export type FlyOperation =
  | 'createApp'
  | 'deleteApp'
  | 'allocateIp'
  | 'releaseIp'
  | 'createVolume'
  | 'deleteVolume'
  | 'createMachine'
  | 'wait'
  | 'destroyMachine';

export interface FlyRequestRecord {
  operation: FlyOperation | 'unknown';
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

interface FakeApp {
  name: string;
  org: string;
  ips: Array<{ ip: string; type: string; shared: boolean }>;
  volumes: Map<string, { id: string; name: string; region: string; size_gb: number; attached_machine_id: string | null }>;
  machines: Map<string, { id: string; instance_id: string; state: string; region: string; config: any; startsAt: number }>;
}

interface Failure {
  status: number;
  body: unknown;
  times: number;
  headers?: Record<string, string>;
}

/**
 * A local stand-in for the Fly Machines REST API (`/v1/apps`, IP
 * assignments, volumes, machines and their wait call) with the real paths
 * and bodies. It checks the bearer token, records every request, keeps the
 * apps, addresses, volumes and machines it created (so tests can see what
 * is left behind), and can be told to fail or stall any operation.
 * A second listener plays the deployed n8n: `GET /{app}/healthz` answers
 * 200 once the app's machine has started (FLY_APP_URL_TEMPLATE =
 * `${n8nUrl}/{app}`).
 */
export class FlyMachinesFake {
  readonly requests: FlyRequestRecord[] = [];
  readonly apps = new Map<string, FakeApp>();
  /** Names that already exist on Fly, owned by someone else. */
  readonly takenNames = new Set<string>();
  /** How long a created machine takes to reach `started`. */
  machineStartMs = 50;
  /** When false, the n8n stand-in answers 503 forever. */
  n8nHealthy = true;
  /** When set, the n8n stand-in answers /healthz with a 302 to this URL. */
  n8nRedirect: string | null = null;
  private readonly failures = new Map<FlyOperation, Failure[]>();
  private readonly stalls = new Map<FlyOperation, { promise: Promise<void>; release: () => void; reached: boolean }>();

  private constructor(
    private readonly api: Server,
    private readonly n8n: Server,
    readonly url: string,
    readonly n8nUrl: string,
    readonly token: string,
  ) {}

  static async start(token = `fo1_${randomBytes(24).toString('base64url')}`): Promise<FlyMachinesFake> {
    const api = createServer();
    const n8n = createServer();
    await Promise.all([api, n8n].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
    const port = (s: Server) => (s.address() as AddressInfo).port;
    const fake = new FlyMachinesFake(api, n8n, `http://127.0.0.1:${port(api)}`, `http://127.0.0.1:${port(n8n)}`, token);
    api.on('request', (req, res) => void fake.onApi(req, res));
    n8n.on('request', (req, res) => fake.onN8n(req, res));
    return fake;
  }

  /** The environment pointing a test server at this stand-in, with fast polling. */
  serverEnv(): Record<string, string> {
    return {
      FLY_API_BASE: this.url,
      FLY_APP_URL_TEMPLATE: `${this.n8nUrl}/{app}`,
      FLY_RETRY_BASE_MS: '20',
      FLY_POLL_INTERVAL_MS: '50',
      FLY_STARTUP_TIMEOUT_SECONDS: '10',
    };
  }

  /** The next `times` calls of `operation` answer `status` with `body` (Fly's `{"error": ...}` shape by default). */
  fail(operation: FlyOperation, status: number, times = 1, body: unknown = { error: `simulated failure of ${operation}` }, headers?: Record<string, string>): void {
    const list = this.failures.get(operation) ?? [];
    list.push({ status, body, times, headers });
    this.failures.set(operation, list);
  }

  /** Holds every call of `operation` until the returned function is called. */
  stall(operation: FlyOperation): { release: () => void; reached: () => boolean } {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    const entry = { promise, release, reached: false };
    this.stalls.set(operation, entry);
    return {
      release: () => {
        this.stalls.delete(operation);
        release();
      },
      reached: () => entry.reached,
    };
  }

  calls(operation: FlyOperation): FlyRequestRecord[] {
    return this.requests.filter((r) => r.operation === operation);
  }

  /** Everything that exists on the fake Fly account: apps with their addresses, volumes and machines. */
  inventory(): Array<{ app: string; ips: number; volumes: number; machines: number }> {
    return [...this.apps.values()].map((a) => ({ app: a.name, ips: a.ips.length, volumes: a.volumes.size, machines: a.machines.size }));
  }

  reset(): void {
    this.requests.length = 0;
    this.apps.clear();
    this.takenNames.clear();
    this.failures.clear();
    for (const s of this.stalls.values()) s.release();
    this.stalls.clear();
    this.machineStartMs = 50;
    this.n8nHealthy = true;
    this.n8nRedirect = null;
  }

  async close(): Promise<void> {
    for (const s of this.stalls.values()) s.release();
    await Promise.all(
      [this.api, this.n8n].map(
        (s) =>
          new Promise<void>((resolve) => {
            s.closeAllConnections();
            s.close(() => resolve());
          }),
      ),
    );
  }

  private onN8n(req: IncomingMessage, res: ServerResponse): void {
    const match = /^\/([a-z0-9-]+)\/healthz$/.exec((req.url ?? '').split('?')[0]);
    const app = match ? this.apps.get(match[1]) : undefined;
    const started = app && [...app.machines.values()].some((m) => this.machineState(m) === 'started');
    if (started && this.n8nRedirect) {
      res.writeHead(302, { location: this.n8nRedirect });
      return void res.end();
    }
    if (this.n8nHealthy && started) return json(res, 200, { status: 'ok' });
    json(res, 503, { error: 'no machine is running' });
  }

  private machineState(m: { state: string; startsAt: number }): string {
    if (m.state === 'created' && Date.now() >= m.startsAt) m.state = 'started';
    return m.state;
  }

  private async onApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return json(res, 400, { error: 'invalid JSON body' });
    }
    const url = new URL(req.url ?? '/', 'http://fly.local');
    const method = req.method ?? 'GET';
    const route = this.route(method, url.pathname);
    const record: FlyRequestRecord = { operation: route?.operation ?? 'unknown', method, path: url.pathname + url.search, authorization: req.headers.authorization, body };
    this.requests.push(record);
    if (req.headers.authorization !== `Bearer ${this.token}`) return json(res, 401, { error: 'You must be authenticated to view this.' });
    if (!route) return json(res, 404, { error: 'not found' });

    const stall = this.stalls.get(route.operation);
    if (stall) {
      stall.reached = true;
      await stall.promise;
    }
    const failures = this.failures.get(route.operation);
    if (failures?.length) {
      const failure = failures[0];
      if (--failure.times <= 0) failures.shift();
      for (const [k, v] of Object.entries(failure.headers ?? {})) res.setHeader(k, v);
      return json(res, failure.status, failure.body);
    }
    return route.handle(url, body, res);
  }

  private route(method: string, path: string): { operation: FlyOperation; handle: (url: URL, body: any, res: ServerResponse) => void | Promise<void> } | null {
    const seg = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (seg[0] !== 'v1' || seg[1] !== 'apps') return null;
    const appName = seg[2];
    const app = appName ? this.apps.get(appName) : undefined;
    const missing = (res: ServerResponse) => json(res, 404, { error: 'app not found' });
    if (method === 'POST' && seg.length === 2) return { operation: 'createApp', handle: (_u, b, res) => this.createApp(b, res) };
    if (method === 'DELETE' && seg.length === 3)
      return {
        operation: 'deleteApp',
        handle: (_u, _b, res) => {
          if (!app) return missing(res);
          this.apps.delete(app.name);
          res.writeHead(202).end();
        },
      };
    if (seg[3] === 'ip_assignments') {
      if (method === 'POST' && seg.length === 4)
        return {
          operation: 'allocateIp',
          handle: (_u, b, res) => {
            if (!app) return missing(res);
            if (!['v6', 'shared_v4', 'v4', 'private_v6'].includes(b?.type)) return json(res, 400, { error: 'invalid ip type' });
            const ip = b.type === 'v6' ? `2a09:8280:1::${app.ips.length + 1}` : '66.241.124.10';
            app.ips.push({ ip, type: b.type, shared: b.type === 'shared_v4' });
            json(res, 200, { ip, region: 'global', shared: b.type === 'shared_v4', service_name: '', created_at: new Date().toISOString() });
          },
        };
      if (method === 'DELETE' && seg.length === 5)
        return {
          operation: 'releaseIp',
          handle: (_u, _b, res) => {
            const index = app?.ips.findIndex((i) => i.ip === seg[4]) ?? -1;
            if (!app || index < 0) return json(res, 404, { error: 'ip not found' });
            app.ips.splice(index, 1);
            res.writeHead(204).end();
          },
        };
    }
    if (seg[3] === 'volumes') {
      if (method === 'POST' && seg.length === 4)
        return {
          operation: 'createVolume',
          handle: (_u, b, res) => {
            if (!app) return missing(res);
            if (typeof b?.name !== 'string' || typeof b?.region !== 'string' || !Number.isInteger(b?.size_gb)) return json(res, 400, { error: 'name, region and size_gb are required' });
            const volume = { id: `vol_${randomBytes(8).toString('hex')}`, name: b.name, region: b.region, size_gb: b.size_gb, attached_machine_id: null };
            app.volumes.set(volume.id, volume);
            json(res, 200, { ...volume, state: 'created', encrypted: true, created_at: new Date().toISOString() });
          },
        };
      if (method === 'DELETE' && seg.length === 5)
        return {
          operation: 'deleteVolume',
          handle: (_u, _b, res) => {
            const volume = app?.volumes.get(seg[4]);
            if (!app || !volume) return json(res, 404, { error: 'volume not found' });
            if (volume.attached_machine_id && app.machines.has(volume.attached_machine_id)) return json(res, 412, { error: 'volume is attached to a machine' });
            app.volumes.delete(volume.id);
            json(res, 200, { ...volume, state: 'pending_destroy' });
          },
        };
    }
    if (seg[3] === 'machines') {
      if (method === 'POST' && seg.length === 4)
        return { operation: 'createMachine', handle: (_u, b, res) => (app ? this.createMachine(app, b, res) : missing(res)) };
      if (method === 'GET' && seg.length === 6 && seg[5] === 'wait')
        return { operation: 'wait', handle: (u, _b, res) => (app ? this.wait(app, seg[4], u, res) : missing(res)) };
      if (method === 'DELETE' && seg.length === 5)
        return {
          operation: 'destroyMachine',
          handle: (_u, _b, res) => {
            if (!app?.machines.has(seg[4])) return json(res, 404, { error: 'machine not found' });
            app.machines.delete(seg[4]);
            for (const v of app.volumes.values()) if (v.attached_machine_id === seg[4]) v.attached_machine_id = null;
            json(res, 200, { ok: true });
          },
        };
    }
    return null;
  }

  private createApp(body: any, res: ServerResponse): void {
    if (typeof body?.app_name !== 'string' || typeof body?.org_slug !== 'string') return json(res, 400, { error: 'app_name and org_slug are required' });
    if (this.apps.has(body.app_name) || this.takenNames.has(body.app_name)) return json(res, 422, { error: 'Name has already been taken' });
    this.apps.set(body.app_name, { name: body.app_name, org: body.org_slug, ips: [], volumes: new Map(), machines: new Map() });
    json(res, 201, { id: randomBytes(8).toString('hex'), created_at: Date.now() });
  }

  private createMachine(app: FakeApp, body: any, res: ServerResponse): void {
    const config = body?.config;
    if (typeof config?.image !== 'string' || !config?.guest?.memory_mb) return json(res, 400, { error: 'config.image and config.guest are required' });
    for (const mount of config.mounts ?? []) {
      const volume = app.volumes.get(mount.volume);
      if (!volume) return json(res, 400, { error: `volume ${mount.volume} not found` });
      volume.attached_machine_id = 'pending';
    }
    const machine = {
      id: randomBytes(7).toString('hex'),
      instance_id: randomBytes(13).toString('hex').toUpperCase(),
      state: 'created',
      region: body.region,
      config,
      startsAt: Date.now() + this.machineStartMs,
    };
    for (const v of app.volumes.values()) if (v.attached_machine_id === 'pending') v.attached_machine_id = machine.id;
    app.machines.set(machine.id, machine);
    json(res, 200, { id: machine.id, instance_id: machine.instance_id, state: machine.state, region: machine.region, config, name: body.name });
  }

  private async wait(app: FakeApp, machineId: string, url: URL, res: ServerResponse): Promise<void> {
    const machine = app.machines.get(machineId);
    if (!machine) return json(res, 404, { error: 'machine not found' });
    const state = url.searchParams.get('state') ?? 'started';
    const timeoutMs = Math.min(60, Number(url.searchParams.get('timeout') ?? 60)) * 1000;
    const until = Date.now() + timeoutMs;
    while (this.machineState(machine) !== state) {
      if (Date.now() >= until || !app.machines.has(machineId)) return json(res, 408, { error: `deadline_exceeded: machine did not reach ${state}` });
      await new Promise((r) => setTimeout(r, 10));
    }
    json(res, 200, { ok: true });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
