import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NOT_AUDITED, type NotAuditedReason } from '../../backend/src/modules/audit';
import { routeFacts } from '../../backend/src/modules/prog/openapi-routes';

/**
 * The route families whose every change is audited: each successful
 * POST/PUT/PATCH/DELETE an API test sends to one of them must leave exactly
 * one audit entry with its request id, and each refused or failed one none,
 * unless the route is marked @NotAudited. A family is listed here once all
 * its mutating routes write their entry.
 */
export const AUDITED_FAMILIES = ['/api/jobs', '/prog/jobs', '/api/maintenance-windows', '/prog/maintenance-windows', '/api/api-keys', '/api/monitors', '/prog/monitors', '/api/alert-channels', '/api/status-pages', '/prog/status-pages', '/api/status-badges', '/prog/status-badges', '/api/accounts', '/api/invitations', '/api/stripe'];

/** Routes of an audited family that do not write their single entry yet (see docs/adr/0182-audit-log.md). */
const NOT_YET_AUDITED = new Set(['POST /api/jobs/import', 'POST /prog/jobs/import']);

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface RouteRule {
  method: string;
  route: string;
  pattern: RegExp;
  params: number;
  notAudited: NotAuditedReason | undefined;
}

/** One mutating request an API test sent, as the server answered it. */
interface SentChange {
  method: string;
  path: string;
  body: unknown;
  status: number;
  requestId: string | null;
}

/** Every route of the app (as the OpenAPI documents key them) with its @NotAudited mark, literal paths before those with parameters. */
function routeRules(app: INestApplication): RouteRule[] {
  const rules = [...routeFacts(app)].map(([key, facts]): RouteRule => {
    const [method, route] = key.split(' ') as [string, string];
    const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const source = route.split(/\{\w+\}/).map(escape).join('[^/]+');
    return {
      method: method.toUpperCase(),
      route,
      pattern: new RegExp(`^${source}/?$`),
      params: (route.match(/\{\w+\}/g) ?? []).length,
      notAudited: Reflect.getMetadata(NOT_AUDITED, facts.handler) as NotAuditedReason | undefined,
    };
  });
  return rules.sort((a, b) => a.params - b.params);
}

/**
 * Records the mutating requests of one test server's HTTP client and, when
 * the server closes, checks the audit log against them (see AUDITED_FAMILIES).
 */
export class AuditCheck {
  private readonly sent: SentChange[] = [];

  record(method: string, path: string, body: unknown, status: number, requestId: string | null): void {
    if (MUTATING.has(method.toUpperCase())) this.sent.push({ method: method.toUpperCase(), path: path.split('?')[0]!, body, status, requestId });
  }

  /**
   * The mismatches of the requests recorded so far, which are then forgotten:
   * deleting an account deletes its entries, so the test server checks what
   * was sent before each such request, while the entries are there.
   */
  async takeMismatches(app: INestApplication): Promise<string[]> {
    const sent = this.sent.slice();
    const found = await this.mismatches(app, sent);
    this.sent.splice(0, sent.length);
    return found;
  }

  /** The mismatches: requests that left no entry, more than one, or one though they failed. Empty when all is well. */
  async mismatches(app: INestApplication, sent: SentChange[] = this.sent): Promise<string[]> {
    const rules = routeRules(app);
    const checked = sent.flatMap((change) => {
      if (!AUDITED_FAMILIES.some((family) => change.path === family || change.path.startsWith(`${family}/`))) return [];
      const rule = rules.find((r) => r.method === change.method && r.pattern.test(change.path));
      if (!rule || NOT_YET_AUDITED.has(`${rule.method} ${rule.route}`) || !change.requestId) return [];
      const flag = rule.notAudited?.whenBodyFlag;
      const exempt = rule.notAudited !== undefined && (flag === undefined || (typeof change.body === 'object' && change.body !== null && (change.body as Record<string, unknown>)[flag] === true));
      if (exempt) return [];
      return [{ change, expected: change.status >= 200 && change.status < 300 ? 1 : 0 }];
    });
    if (checked.length === 0) return [];
    const rows: Array<{ request_id: string; n: number }> = await app
      .get(DataSource)
      .query(`SELECT request_id, count(*)::int AS n FROM audit_events WHERE request_id = ANY($1) GROUP BY request_id`, [checked.map((c) => c.change.requestId)]);
    const counts = new Map(rows.map((r) => [r.request_id, r.n]));
    return checked
      .filter(({ change, expected }) => (counts.get(change.requestId!) ?? 0) !== expected)
      .map(({ change, expected }) => `${change.method} ${change.path} answered ${change.status} and left ${counts.get(change.requestId!) ?? 0} audit entries (expected ${expected}; request ${change.requestId})`);
  }
}
