import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NOT_AUDITED, type NotAuditedReason } from '../../backend/src/modules/audit';
import { routeFacts } from '../../backend/src/modules/prog/openapi-routes';

/**
 * Every change an API test sends is checked: each successful
 * POST/PUT/PATCH/DELETE must leave exactly one audit entry with its request
 * id, and each refused or failed one none, unless its route is marked
 * @NotAudited (see docs/adr/0182-audit-log.md).
 */
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
  answer: unknown;
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

/** Whether a @NotAudited mark covers this request: always without a condition, else when one of its conditions holds. */
function exempted(mark: NotAuditedReason, change: SentChange): boolean {
  const field = (value: unknown, name: string) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);
  if (mark.whenBodyFlag === undefined && mark.whenAnswerZero === undefined) return true;
  return (mark.whenBodyFlag !== undefined && field(change.body, mark.whenBodyFlag) === true) || (mark.whenAnswerZero !== undefined && field(change.answer, mark.whenAnswerZero) === 0);
}

/**
 * Records the mutating requests of one test server's HTTP client and, when
 * the server closes, checks the audit log against them: every route's changes.
 */
export class AuditCheck {
  private readonly sent: SentChange[] = [];

  record(method: string, path: string, body: unknown, status: number, requestId: string | null, answer: unknown = null): void {
    if (MUTATING.has(method.toUpperCase())) this.sent.push({ method: method.toUpperCase(), path: path.split('?')[0]!, body, status, requestId, answer });
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
      const rule = rules.find((r) => (r.method === change.method || r.method === 'ALL') && r.pattern.test(change.path));
      // A path no route serves (a 404 from the router) changes nothing; neither does a request the server never answered with its id.
      if (!rule || !change.requestId) return [];
      if (rule.notAudited && exempted(rule.notAudited, change)) return [];
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
