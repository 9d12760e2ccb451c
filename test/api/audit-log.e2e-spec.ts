import { AuditService } from '../../backend/src/modules/audit/audit.service';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { AuditCheck } from '../support/audit-check';
import { Authenticator } from '../support/totp-authenticator';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import type { AuditEvent } from '@cronbeam/shared/audit/audit';

jest.setTimeout(60_000);


describe('audit log (/api/audit)', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  let apiKey: string;
  let keyId: string;

  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const entries = async (who: SignedInAccount, query = ''): Promise<AuditEvent[]> => {
    const res = await server.http.get(`/api/audit${query}`, as(who));
    expect(res.status).toBe(200);
    return res.body.events;
  };
  /** The entries a request left, by its echoed request id. */
  const entriesOf = async (requestId: string | null) => sql<AuditEvent>(server, `SELECT * FROM audit_events WHERE request_id = $1`, [requestId]);

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
    const key = await server.http.post('/api/api-keys/generate', { name: 'audit' }, as(alice));
    expect(key.status).toBe(200);
    apiKey = key.body.api_key;
    keyId = key.body.key_id;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('records a creation with its actor, address, request id and every field set, secrets masked', async () => {
    const res = await server.http.post('/api/jobs', jobDefinition({ name: 'audited-create', headers: { Authorization: 'Bearer hunter2' }, body: '{"x":1}' }), as(alice));
    expect(res.status).toBe(200);
    const [entry, ...more] = await entriesOf(res.headers.get('x-request-id'));
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({ actor_user_id: alice.userId, actor_key_id: null, action: 'job.created', target_type: 'job', target_id: res.body.job_id });
    expect(entry!.actor_ip).toMatch(/127\.0\.0\.1$/);
    expect(entry!.changes.name).toEqual({ before: null, after: 'audited-create' });
    expect(entry!.changes.headers).toEqual({ before: null, after: { Authorization: '***' } });
    expect(entry!.changes.signing_secret).toEqual({ before: null, after: '***' });
    expect(JSON.stringify(entry)).not.toContain('hunter2');
    expect(JSON.stringify(entry)).not.toContain(res.body.signing_secret);
  });

  it('records an update with only the fields that changed, before and after', async () => {
    const definition = jobDefinition({ name: 'audited-update', headers: { 'X-A': 'one', 'X-B': 'two' } });
    const created = await server.http.post('/api/jobs', definition, as(alice));
    const res = await server.http.put(`/api/jobs/${created.body.job_id}`, { ...definition, url: 'https://example.com/other', headers: { 'X-A': 'one', 'X-B': 'three' } }, as(alice));
    expect(res.status).toBe(200);
    const [entry] = await entriesOf(res.headers.get('x-request-id'));
    expect(entry!.action).toBe('job.updated');
    expect(entry!.changes).toEqual({
      url: { before: 'https://example.com/hook', after: 'https://example.com/other' },
      headers: { before: { 'X-A': '***', 'X-B': '***' }, after: { 'X-A': '***', 'X-B': '*** (changed)' } },
    });
  });

  it('records pause, resume, signing-secret rotation and deletion, each once', async () => {
    const created = await server.http.post('/api/jobs', jobDefinition({ name: 'audited-lifecycle' }), as(alice));
    const id = created.body.job_id;
    for (const [send, action] of [
      [() => server.http.post(`/api/jobs/${id}/pause`, undefined, as(alice)), 'job.paused'],
      [() => server.http.post(`/api/jobs/${id}/resume`, undefined, as(alice)), 'job.resumed'],
      [() => server.http.post(`/api/jobs/${id}/signing-secret`, { overlap_seconds: 60 }, as(alice)), 'job.signing_secret_rotated'],
      [() => server.http.delete(`/api/jobs/${id}`, as(alice)), 'job.deleted'],
    ] as const) {
      const res = await send();
      expect(res.status).toBe(200);
      const found = await entriesOf(res.headers.get('x-request-id'));
      expect(found.map((e) => [e.action, e.target_id])).toEqual([[action, id]]);
    }
    const history = await entries(alice, `?target=${id}`);
    expect(history.map((e) => e.action)).toEqual(['job.deleted', 'job.signing_secret_rotated', 'job.resumed', 'job.paused', 'job.created']);
    expect(history[3]!.changes.status).toEqual({ before: 'pending', after: 'paused' });
    expect(history[1]!.changes).toEqual({ signing_secret: { before: '***', after: '***' } });
    expect(history[0]!.changes.name).toEqual({ before: 'audited-lifecycle', after: null });
  });

  it('records a change made with an API key, naming the key', async () => {
    const res = await server.http.post('/prog/jobs', jobDefinition({ name: 'audited-by-key' }), { headers: { 'X-API-Key': apiKey, 'X-User-ID': alice.userId } });
    expect(res.status).toBe(200);
    const [entry] = await entriesOf(res.headers.get('x-request-id'));
    expect(entry).toMatchObject({ actor_user_id: alice.userId, action: 'job.created' });
    expect(entry!.actor_key_id).toBe(keyId);
  });

  it('records who ran a job now, with the run; a run the quota refuses leaves none', async () => {
    const target = await HttpTarget.start();
    try {
      const created = await server.http.post('/api/jobs', jobDefinition({ name: 'audited-run', url: `${target.url}/run` }), as(alice));
      const ran = await server.http.post(`/api/jobs/${created.body.job_id}/run`, undefined, as(alice));
      expect(ran.status).toBe(200);
      const [entry, ...more] = await entriesOf(ran.headers.get('x-request-id'));
      expect(more).toHaveLength(0);
      expect(entry).toMatchObject({ action: 'job.run_requested', target_id: created.body.job_id, changes: { run_id: { before: null, after: ran.body.run_id } } });
      const usage = await sql<{ executions: number }>(server, `UPDATE usage_periods SET executions = 10000 WHERE account_id = $1 RETURNING executions`, [alice.userId]);
      expect(usage).toHaveLength(1);
      const refused = await server.http.post(`/api/jobs/${created.body.job_id}/run`, undefined, as(alice));
      expect(refused.status).toBe(403);
      expect(await entriesOf(refused.headers.get('x-request-id'))).toHaveLength(0);
      await sql(server, `UPDATE usage_periods SET executions = 0 WHERE account_id = $1`, [alice.userId]);
    } finally {
      await target.close();
    }
  });

  it('records maintenance windows created, changed and deleted', async () => {
    const definition = { name: 'audited-window', cron_expression: '0 2 * * SUN', duration_minutes: 90, time_zone: 'Europe/Berlin' };
    const created = await server.http.post('/api/maintenance-windows', definition, as(alice));
    expect(created.status).toBe(200);
    const id = created.body.window_id;
    const updated = await server.http.put(`/api/maintenance-windows/${id}`, { ...definition, duration_minutes: 60 }, as(alice));
    expect(updated.status).toBe(200);
    const deleted = await server.http.delete(`/api/maintenance-windows/${id}`, as(alice));
    expect(deleted.status).toBe(200);
    const history = await entries(alice, `?target=${id}`);
    expect(history.map((e) => [e.action, e.request_id])).toEqual([
      ['maintenance_window.deleted', deleted.headers.get('x-request-id')],
      ['maintenance_window.updated', updated.headers.get('x-request-id')],
      ['maintenance_window.created', created.headers.get('x-request-id')],
    ]);
    expect(history[1]!.changes).toEqual({ duration_minutes: { before: 90, after: 60 } });
    expect(history[2]!.changes.name).toEqual({ before: null, after: 'audited-window' });
    expect((await entries(alice, '?action=maintenance_window')).length).toBe(3);
  });

  it('records API keys made and deleted by name and prefix, never the secret', async () => {
    const made = await server.http.post('/api/api-keys/generate', { name: 'audited-key' }, as(alice));
    expect(made.status).toBe(200);
    const deleted = await server.http.delete(`/api/api-keys/${made.body.key_id}`, as(alice));
    expect(deleted.status).toBe(200);
    const history = await entries(alice, `?target=${made.body.key_id}`);
    expect(history.map((e) => [e.action, e.request_id, e.changes])).toEqual([
      ['api_key.deleted', deleted.headers.get('x-request-id'), { name: { before: 'audited-key', after: null }, prefix: { before: made.body.prefix, after: null } }],
      ['api_key.created', made.headers.get('x-request-id'), { name: { before: null, after: 'audited-key' }, prefix: { before: null, after: made.body.prefix } }],
    ]);
    expect(JSON.stringify(history)).not.toContain(made.body.api_key);
    const missing = await server.http.delete(`/api/api-keys/${made.body.key_id}`, as(alice));
    expect(missing.status).toBe(404);
    expect(await entriesOf(missing.headers.get('x-request-id'))).toHaveLength(0);
  });

  it('records monitors created, changed, paused, resumed and deleted, the ping token never shown', async () => {
    const created = await server.http.post('/api/monitors', { name: 'audited-monitor', period_seconds: 3600, tags: ['audit-monitors'] }, as(alice));
    expect(created.status).toBe(200);
    const id = created.body.monitor_id;
    const updated = await server.http.put(`/api/monitors/${id}`, { name: 'audited-monitor', period_seconds: 600, tags: ['audit-monitors'] }, as(alice));
    expect(updated.status).toBe(200);
    expect((await server.http.post(`/api/monitors/${id}/pause`, undefined, as(alice))).status).toBe(200);
    const resumed = await server.http.post('/api/monitors/bulk-action', { action: 'resume', tag: 'audit-monitors' }, as(alice));
    expect(resumed.status).toBe(200);
    expect((await server.http.delete(`/api/monitors/${id}`, as(alice))).status).toBe(200);
    const history = await entries(alice, `?target=${id}`);
    expect(history.map((e) => e.action)).toEqual(['monitor.deleted', 'monitor.paused', 'monitor.updated', 'monitor.created']);
    expect(history[2]!.changes).toEqual({ period_seconds: { before: 3600, after: 600 } });
    expect(history[3]!.changes.token).toEqual({ before: null, after: '***' });
    expect(history[1]!.changes.status!.after).toBe('paused');
    const [bulk] = await entriesOf(resumed.headers.get('x-request-id'));
    expect(bulk).toMatchObject({ action: 'monitor.bulk_resumed', target_type: 'tag', target_id: 'audit-monitors', changes: { monitor_ids: { before: null, after: [id] } } });
    expect(JSON.stringify(history)).not.toContain(created.body.ping_url.split('/').pop());
  });

  it('records alert channels made and deleted, a webhook URL and a secret only as changed; a test alert is not a change', async () => {
    const made = await server.http.post('/api/alert-channels', { name: 'audited-slack', kind: 'slack', target: 'https://user:pw@hooks.slack.com/services/T0/B0/sekrit-token' }, as(alice));
    expect(made.status).toBe(200);
    const id = made.body.channel_id;
    const deleted = await server.http.delete(`/api/alert-channels/${id}`, as(alice));
    expect(deleted.status).toBe(200);
    const history = await entries(alice, `?target=${id}`);
    expect(history.map((e) => e.action)).toEqual(['alert_channel.deleted', 'alert_channel.created']);
    expect(history[1]!.changes).toMatchObject({
      name: { before: null, after: 'audited-slack' },
      kind: { before: null, after: 'slack' },
      target_host: { before: null, after: 'hooks.slack.com' },
      target_url: { before: null, after: '***' },
    });
    expect(JSON.stringify(history)).not.toMatch(/sekrit|pw@/);
  });

  it('records status pages and badges, items before and after, a badge token only as changed', async () => {
    const job = await server.http.post('/api/jobs', jobDefinition({ name: 'audited-status' }), as(alice));
    const page = await server.http.post('/api/status-pages', { slug: 'audited-page', title: 'Audited', items: [{ job_id: job.body.job_id }] }, as(alice));
    expect(page.status).toBe(200);
    const id = page.body.page_id;
    const updated = await server.http.put(`/api/status-pages/${id}`, { slug: 'audited-page', title: 'Audited', items: [{ job_id: job.body.job_id, label: 'Nightly' }] }, as(alice));
    expect(updated.status).toBe(200);
    const badge = await server.http.post('/api/status-badges', { page_id: id }, as(alice));
    expect(badge.status).toBe(200);
    const rotated = await server.http.post(`/api/status-badges/${badge.body.badge_id}/rotate`, undefined, as(alice));
    expect(rotated.status).toBe(200);
    expect((await server.http.delete(`/api/status-badges/${badge.body.badge_id}`, as(alice))).status).toBe(200);
    expect((await server.http.delete(`/api/status-pages/${id}`, as(alice))).status).toBe(200);

    const pageHistory = await entries(alice, `?target=${id}`);
    expect(pageHistory.map((e) => e.action)).toEqual(['status_page.deleted', 'status_page.updated', 'status_page.created']);
    expect(pageHistory[1]!.changes).toEqual({
      items: { before: [{ job_id: job.body.job_id, monitor_id: null, tag: null, label: null }], after: [{ job_id: job.body.job_id, monitor_id: null, tag: null, label: 'Nightly' }] },
    });
    const badgeHistory = await entries(alice, `?target=${badge.body.badge_id}`);
    expect(badgeHistory.map((e) => e.action)).toEqual(['status_badge.deleted', 'status_badge.rotated', 'status_badge.created']);
    expect(badgeHistory[1]!.changes).toEqual({ token: { before: '***', after: '***' } });
    expect(JSON.stringify(badgeHistory)).not.toContain(badge.body.url.split('/').pop().replace('.svg', ''));
  });

  it('answers the same entries on /prog/audit to an API key', async () => {
    const viaKey = await server.http.get('/prog/audit?action=job&limit=5', { headers: { 'X-API-Key': apiKey, 'X-User-ID': alice.userId } });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.events).toEqual(await entries(alice, '?action=job&limit=5'));
    expect((await server.http.get('/prog/audit?limit=0', { headers: { 'X-API-Key': apiKey, 'X-User-ID': alice.userId } })).status).toBe(422);
    expect((await server.http.get('/prog/audit')).status).toBe(401);
  });

  it('records a bulk creation and a tag action as one entry naming every job', async () => {
    const bulk = await server.http.post('/api/jobs/bulk', { jobs: [jobDefinition({ tags: ['audit-bulk'] }), jobDefinition({ tags: ['audit-bulk'] })] }, as(alice));
    expect(bulk.status).toBe(200);
    const [created, ...more] = await entriesOf(bulk.headers.get('x-request-id'));
    expect(more).toHaveLength(0);
    expect(created!.action).toBe('job.bulk_created');
    expect((created!.changes.job_ids!.after as string[]).sort()).toEqual(bulk.body.jobs.map((j: { job_id: string }) => j.job_id).sort());
    const paused = await server.http.post('/api/jobs/bulk-action', { action: 'pause', tag: 'audit-bulk' }, as(alice));
    expect(paused.status).toBe(200);
    const [entry, ...others] = await entriesOf(paused.headers.get('x-request-id'));
    expect(others).toHaveLength(0);
    expect(entry).toMatchObject({ action: 'job.bulk_paused', target_type: 'tag', target_id: 'audit-bulk' });
    expect(entry!.changes.job_ids!.after).toHaveLength(2);
  });

  it('leaves no entry for a refused change: validation, the plan limit, a name taken inside the statement', async () => {
    const invalid = await server.http.post('/api/jobs', jobDefinition({ url: 'not a url' }), as(alice));
    expect(invalid.status).toBe(422);
    expect(await entriesOf(invalid.headers.get('x-request-id'))).toHaveLength(0);

    // Bob is on the free plan: two jobs, then 403 from the check after the insert (same transaction).
    for (const name of ['bob-1', 'bob-2']) expect((await server.http.post('/api/jobs', jobDefinition({ name }), as(bob))).status).toBe(200);
    const over = await server.http.post('/api/jobs', jobDefinition({ name: 'bob-3' }), as(bob));
    expect(over.status).toBe(403);
    expect(await entriesOf(over.headers.get('x-request-id'))).toHaveLength(0);

    const first = await server.http.post('/api/jobs', jobDefinition({ name: 'taken-a' }), as(alice));
    const second = jobDefinition({ name: 'taken-b' });
    const created = await server.http.post('/api/jobs', second, as(alice));
    expect(first.status).toBe(200);
    const clash = await server.http.put(`/api/jobs/${created.body.job_id}`, { ...second, name: 'taken-a' }, as(alice));
    expect(clash.status).toBe(422);
    expect(await entriesOf(clash.headers.get('x-request-id'))).toHaveLength(0);
  });

  it('filters by action, resource, actor, target and time, and pages newest first', async () => {
    const all = await entries(alice, '?limit=200');
    expect(all.length).toBeGreaterThan(5);
    expect(all.map((e) => e.created_at)).toEqual([...all.map((e) => e.created_at)].sort().reverse());
    expect((await entries(alice, '?action=job.deleted')).every((e) => e.action === 'job.deleted')).toBe(true);
    expect((await entries(alice, '?action=job&limit=200')).length).toBe(all.filter((e) => e.action.startsWith('job.')).length);
    expect((await entries(alice, `?actor=${alice.userId}&limit=200`)).length).toBe(all.filter((e) => e.actor_user_id === alice.userId).length);
    const keyEntries = all.filter((e) => e.actor_key_id);
    expect(await entries(alice, `?actor=${keyEntries[0]!.actor_key_id}`)).toEqual(keyEntries);
    expect(await entries(alice, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect((await entries(alice, `?until=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=200`)).length).toBe(all.length);

    const pages: AuditEvent[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { events: AuditEvent[]; next_cursor: string | null } } = await server.http.get(`/api/audit?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, as(alice));
      expect(res.status).toBe(200);
      expect(res.body.events.length).toBeLessThanOrEqual(3);
      pages.push(...res.body.events);
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(pages.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('refuses malformed filters with the field and message', async () => {
    for (const [query, field, msg] of [
      ['?actor=nobody', 'actor', 'actor must be the id of a user or an API key'],
      ['?since=yesterday', 'since', 'since must be an ISO 8601 date-time'],
      ['?limit=0', 'limit', 'limit must be a whole number from 1 to 200'],
      ['?cursor=abc', 'cursor', 'cursor must be a next_cursor the audit log answered'],
      ['?action=DROP%20TABLE', 'action', 'action must be an action (job.created) or a resource (job)'],
    ]) {
      const res = await server.http.get(`/api/audit${query}`, as(alice));
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', field], msg });
    }
    expect((await server.http.get('/api/audit?colour=red', as(alice))).status).toBe(422);
    expect((await server.http.get('/api/audit')).status).toBe(401);
  });

  it('shows an account only its own entries', async () => {
    const bobs = await entries(bob, '?limit=200');
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.every((e) => e.actor_user_id === bob.userId)).toBe(true);
    const alices = await entries(alice, '?limit=200');
    expect(alices.some((e) => e.actor_user_id === bob.userId)).toBe(false);
    // Bob's filters on Alice's targets find nothing.
    expect(await entries(bob, `?target=${alices[0]!.target_id}`)).toEqual([]);
  });

  it('is for the account owner and admins: an editor or viewer is refused, an admin reads the account’s entries', async () => {
    const inAlices = { ...as(bob), headers: { 'X-Cronbeam-Account': alice.userId } };
    for (const role of ['viewer', 'editor']) {
      await sql(server, `INSERT INTO account_members (account_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (account_id, user_id) DO UPDATE SET role = $3`, [alice.userId, bob.userId, role]);
      const refused = await server.http.get('/api/audit', inAlices);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe(`Your role in this account (${role}) cannot do this`);
      expect((await server.http.get('/api/audit.csv', inAlices)).status).toBe(403);
    }
    await sql(server, `UPDATE account_members SET role = 'admin' WHERE account_id = $1 AND user_id = $2`, [alice.userId, bob.userId]);
    const read = await server.http.get('/api/audit?limit=200', inAlices);
    expect(read.status).toBe(200);
    expect(read.body.events).toEqual(await entries(alice, '?limit=200'));
    await sql(server, `DELETE FROM account_members WHERE account_id = $1 AND user_id = $2`, [alice.userId, bob.userId]);
  });

  it('exports the filtered entries as CSV, cells a spreadsheet would run made inert', async () => {
    // A request id is the client's text: one starting with "-" would be a formula.
    const created = await server.http.post('/api/jobs', jobDefinition({ name: 'csv-export' }), { ...as(alice), headers: { 'x-request-id': '-1-1' } });
    expect(created.status).toBe(200);
    const res = await server.http.get(`/api/audit.csv?target=${created.body.job_id}`, as(alice));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe('created_at,action,target_type,target_id,actor_user_id,actor_key_id,actor_ip,request_id,changes');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"job.created"');
    expect(lines[1]).toContain(`"${created.body.job_id}"`);
    expect(lines[1]).toContain(`"'-1-1"`);
    expect(lines[1]).toContain('""name"":{""after"":""csv-export""');
    const bobs = await server.http.get(`/api/audit.csv?target=${created.body.job_id}`, as(bob));
    expect(bobs.status).toBe(200);
    expect(bobs.text.trim().split('\r\n')).toHaveLength(1);
  });

  it('keeps entries as long as the plan says, then the retention sweep deletes them', async () => {
    const kept = await sql<{ id: string }>(
      server,
      `INSERT INTO audit_events (account_id, action, target_type, created_at) VALUES
         ($1, 'job.test', 'job', now() - interval '29 days'), ($1, 'job.test', 'job', now() - interval '31 days'),
         ($2, 'job.test', 'job', now() - interval '364 days'), ($2, 'job.test', 'job', now() - interval '366 days')
       RETURNING id::text`,
      [bob.userId, alice.userId],
    );
    await server.app.get(AuditService).deleteExpired();
    const left = await sql<{ id: string }>(server, `SELECT id::text FROM audit_events WHERE id = ANY($1::bigint[])`, [kept.map((k) => k.id)]);
    expect(left.map((r) => r.id).sort()).toEqual([kept[0]!.id, kept[2]!.id].sort());
  });

  it('records an import as one entry naming the jobs it created, with the counts; a dry run, or an import that stores nothing, leaves none', async () => {
    const crontab = ['0 1 * * * curl https://example.com/imported-a', '0 2 * * * curl https://example.com/imported-b', 'not a crontab line'].join('\n');
    const preview = await server.http.post('/api/jobs/import', { format: 'crontab', content: crontab, dry_run: true }, as(alice));
    expect(preview.body).toMatchObject({ dry_run: true, created: 2, refused: 1 });
    expect(await entriesOf(preview.headers.get('x-request-id'))).toEqual([]);

    const res = await server.http.post('/api/jobs/import', { format: 'crontab', content: crontab }, as(alice));
    expect(res.body).toMatchObject({ dry_run: false, created: 2, refused: 1 });
    const ids = (res.body.items as Array<{ job_id: string | null }>).flatMap((item) => (item.job_id ? [item.job_id] : [])).sort();
    expect(ids).toHaveLength(2);
    expect(await entriesOf(res.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({
        account_id: alice.userId,
        actor_user_id: alice.userId,
        actor_key_id: null,
        action: 'job.imported',
        target_type: 'job',
        target_id: null,
        changes: { job_ids: { before: null, after: ids }, created: { before: null, after: 2 }, refused: { before: null, after: 1 } },
      }),
    ]);

    const taken = (await server.http.get('/api/jobs/export', as(alice))).body.jobs.slice(0, 1);
    const nothing = await server.http.post('/api/jobs/import', { format: 'json', content: JSON.stringify({ jobs: taken }) }, as(alice));
    expect(nothing.body).toMatchObject({ created: 0, refused: 1 });
    expect(await entriesOf(nothing.headers.get('x-request-id'))).toEqual([]);

    const viaKey = await server.http.post('/prog/jobs/import', { format: 'crontab', content: '0 3 * * * curl https://example.com/imported-by-key' }, { token: apiKey });
    expect(viaKey.body).toMatchObject({ created: 1, refused: 0 });
    expect(await entriesOf(viaKey.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ actor_user_id: alice.userId, actor_key_id: keyId, action: 'job.imported', changes: expect.objectContaining({ created: { before: null, after: 1 }, refused: { before: null, after: 0 } }) }),
    ]);
  });

  it('records profile and security changes in the user’s personal account, the user acting, every secret masked; a refused one leaves none', async () => {
    const carol = await signUpAndLogin(server, { name: 'Carol' });
    const auth = { token: carol.accessToken };
    const personal = async () => sql<AuditEvent & { account_id: string }>(server, `SELECT * FROM audit_events WHERE account_id = $1 ORDER BY id`, [carol.userId]);
    const only = async (res: { headers: Headers }) => {
      const found = await entriesOf(res.headers.get('x-request-id'));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ account_id: carol.userId, actor_user_id: carol.userId, actor_key_id: null, target_type: 'user', target_id: carol.userId });
      return found[0]!;
    };
    expect((await personal()).map((e) => [e.action, e.changes])).toEqual([
      ['user.signed_up', { name: { before: null, after: 'Carol' }, email: { before: null, after: carol.email }, password: { before: null, after: '***' } }],
      ['user.email_verified', { email_verified: { before: false, after: true } }],
    ]);

    const renamed = await server.http.patch('/api/auth/profile', { name: 'Carol B' }, auth);
    expect(renamed.status).toBe(200);
    expect(await only(renamed)).toMatchObject({ action: 'user.profile_updated', changes: { name: { before: 'Carol', after: 'Carol B' } } });
    const blank = await server.http.patch('/api/auth/profile', { name: '' }, auth);
    expect(blank.status).toBe(422);
    expect(await entriesOf(blank.headers.get('x-request-id'))).toEqual([]);

    const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, auth);
    expect(setup.status).toBe(200);
    expect(await entriesOf(setup.headers.get('x-request-id'))).toEqual([]);
    const app = new Authenticator(setup.body.secret);
    const code = await app.nextCode();
    const wrongCode = await server.http.post('/api/auth/mfa/totp/enable', { code: String((Number(code) + 1) % 1_000_000).padStart(6, '0') }, auth);
    expect(wrongCode.status).toBe(400);
    expect(await entriesOf(wrongCode.headers.get('x-request-id'))).toEqual([]);
    const enabled = await server.http.post('/api/auth/mfa/totp/enable', { code }, auth);
    expect(enabled.status).toBe(200);
    expect(await only(enabled)).toMatchObject({
      action: 'user.two_factor_enabled',
      changes: { two_factor: { before: false, after: true }, totp_secret: { before: null, after: '***' }, recovery_codes: { before: null, after: '***' } },
    });
    const regenerated = await server.http.post('/api/auth/mfa/recovery-codes', { recovery_code: enabled.body.recovery_codes[0] }, auth);
    expect(regenerated.status).toBe(200);
    expect(await only(regenerated)).toMatchObject({ action: 'user.recovery_codes_regenerated', changes: { recovery_codes: { before: '***', after: '***' } } });
    const disabled = await server.http.post('/api/auth/mfa/totp/disable', { recovery_code: regenerated.body.recovery_codes[0] }, auth);
    expect(disabled.status).toBe(200);
    expect(await only(disabled)).toMatchObject({ action: 'user.two_factor_disabled', changes: { two_factor: { before: true, after: false }, totp_secret: { before: '***', after: null } } });

    const wrongPassword = await server.http.post('/api/auth/change-password', { old_password: 'Not-Her-Password-1', new_password: 'New-Password-123!' }, auth);
    expect(wrongPassword.status).toBeGreaterThanOrEqual(400);
    expect(await entriesOf(wrongPassword.headers.get('x-request-id'))).toEqual([]);
    const changed = await server.http.post('/api/auth/change-password', { old_password: carol.password, new_password: 'New-Password-123!' }, auth);
    expect(changed.status).toBe(200);
    expect(await only(changed)).toMatchObject({ action: 'user.password_changed', changes: { password: { before: '***', after: '***' } } });

    const everywhere = await server.http.post('/api/auth/global-sign-out', undefined, auth);
    expect(everywhere.status).toBe(200);
    expect(await only(everywhere)).toMatchObject({ action: 'user.signed_out_everywhere' });

    // Nothing secret in any of the user's entries, and none of them in the account the user was acting in elsewhere.
    const text = JSON.stringify(await personal());
    for (const secret of [setup.body.secret, carol.password, 'New-Password-123!', ...enabled.body.recovery_codes, ...regenerated.body.recovery_codes]) expect(text).not.toContain(secret);
  });

  it('writes a profile or security change in one transaction with its entry: an entry that cannot be written undoes the change', async () => {
    const erin = await signUpAndLogin(server, { name: 'Erin' });
    const auth = { token: erin.accessToken };
    const refusedEmail = `refused-${erin.userId}@example.test`;
    const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, auth);
    expect(setup.status).toBe(200);
    const app = new Authenticator(setup.body.secret);
    // A real failure of the entry's INSERT, in the database: every entry of Erin's account, and the sign-up of one address.
    await sql(server, `CREATE FUNCTION refuse_audit_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit entry % refused by the test', NEW.action; END $$`);
    await sql(
      server,
      `CREATE TRIGGER refuse_audit_entry BEFORE INSERT ON audit_events FOR EACH ROW
         WHEN (NEW.account_id = '${erin.userId}'::uuid OR NEW.changes #>> '{email,after}' = '${refusedEmail}')
         EXECUTE FUNCTION refuse_audit_entry()`,
    );
    const refusedAndLeftNone = async (res: { status: number; headers: Headers }) => {
      expect(res.status).toBe(500);
      expect(await entriesOf(res.headers.get('x-request-id'))).toEqual([]);
    };
    const account = async () => (await server.http.get('/api/account', auth)).body;
    try {
      await refusedAndLeftNone(await server.http.patch('/api/auth/profile', { name: 'Erin B' }, auth));
      expect((await account()).name).toBe('Erin');

      await refusedAndLeftNone(await server.http.post('/api/auth/change-password', { old_password: erin.password, new_password: 'Erins-New-Password-1' }, auth));
      expect((await server.http.post('/api/auth/login', { email: erin.email, password: 'Erins-New-Password-1' })).status).toBe(401);
      expect((await server.http.post('/api/auth/login', { email: erin.email, password: erin.password })).status).toBe(200);

      await refusedAndLeftNone(await server.http.post('/api/auth/mfa/totp/enable', { code: await app.nextCode() }, auth));
      expect((await server.http.get('/api/auth/mfa', auth)).body).toMatchObject({ totp_enabled: false, recovery_codes_left: 0 });

      await refusedAndLeftNone(await server.http.post('/api/auth/global-sign-out', undefined, auth));
      expect((await server.http.get('/api/account', auth)).status).toBe(200);
      const refreshed = await server.http.post('/api/auth/refresh', { refresh_token: erin.refreshToken });
      expect(refreshed.status).toBe(200);
      erin.refreshToken = refreshed.body.refresh_token;

      const operator = await server.http.post(`/api/admin/users/${encodeURIComponent(erin.email)}/require-new-password`, undefined, { headers: { 'x-admin-token': TEST_ADMIN_TOKEN } });
      await refusedAndLeftNone(operator);
      expect((await server.http.post('/api/auth/login', { email: erin.email, password: erin.password })).body).toHaveProperty('access_token');

      await refusedAndLeftNone(await server.http.post('/api/auth/signup', { name: 'Refused', email: refusedEmail, password: 'Refused-Password-1' }));
      expect(await sql(server, `SELECT id FROM users WHERE email = $1`, [refusedEmail])).toEqual([]);
    } finally {
      await sql(server, `DROP TRIGGER refuse_audit_entry ON audit_events`);
      await sql(server, `DROP FUNCTION refuse_audit_entry()`);
    }

    // The same requests, the entry written: each change is made, with its one entry.
    const renamed = await server.http.patch('/api/auth/profile', { name: 'Erin B' }, auth);
    expect(renamed.status).toBe(200);
    expect((await entriesOf(renamed.headers.get('x-request-id'))).map((e) => e.action)).toEqual(['user.profile_updated']);
    expect((await account()).name).toBe('Erin B');
    const enabled = await server.http.post('/api/auth/mfa/totp/enable', { code: await app.nextCode() }, auth);
    expect(enabled.status).toBe(200);
    expect((await entriesOf(enabled.headers.get('x-request-id'))).map((e) => e.action)).toEqual(['user.two_factor_enabled']);
    expect((await server.http.get('/api/auth/mfa', auth)).body).toMatchObject({ totp_enabled: true, recovery_codes_left: 10 });
    const signedUp = await server.http.post('/api/auth/signup', { name: 'Refused', email: refusedEmail, password: 'Refused-Password-1' });
    expect(signedUp.status).toBe(201);
    expect((await entriesOf(signedUp.headers.get('x-request-id'))).map((e) => [e.action, e.target_id])).toEqual([['user.signed_up', signedUp.body.user_id]]);
  });

  it('records the new password a flagged user chooses at sign-in, in one transaction with lifting the flag', async () => {
    const frank = await signUpAndLogin(server);
    const flagged = await server.http.post(`/api/admin/users/${encodeURIComponent(frank.email)}/require-new-password`, undefined, { headers: { 'x-admin-token': TEST_ADMIN_TOKEN } });
    expect(flagged.status).toBe(200);
    expect(await entriesOf(flagged.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ account_id: frank.userId, actor_user_id: null, action: 'user.new_password_required', changes: { password_change_required: { before: false, after: true } } }),
    ]);
    const choose = async (newPassword: string) => {
      const step = await server.http.post('/api/auth/login', { email: frank.email, password: frank.password });
      expect(step.body).toEqual({ challenge: 'NEW_PASSWORD_REQUIRED', session: expect.any(String) });
      return server.http.post('/api/auth/challenge', { email: frank.email, challenge: 'NEW_PASSWORD_REQUIRED', session: step.body.session, new_password: newPassword });
    };

    // The entry's INSERT fails (a trigger): the new password is not set and the flag stays.
    await sql(server, `CREATE FUNCTION refuse_audit_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit entry % refused by the test', NEW.action; END $$`);
    await sql(server, `CREATE TRIGGER refuse_audit_entry BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.account_id = '${frank.userId}'::uuid) EXECUTE FUNCTION refuse_audit_entry()`);
    try {
      const refused = await choose('Franks-New-Password-1');
      expect(refused.status).toBe(500);
      expect(await entriesOf(refused.headers.get('x-request-id'))).toEqual([]);
      expect((await server.http.post('/api/auth/login', { email: frank.email, password: 'Franks-New-Password-1' })).status).toBe(401);
    } finally {
      await sql(server, `DROP TRIGGER refuse_audit_entry ON audit_events`);
      await sql(server, `DROP FUNCTION refuse_audit_entry()`);
    }

    const chosen = await choose('Franks-New-Password-1');
    expect(chosen.status).toBe(200);
    expect(await entriesOf(chosen.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({
        account_id: frank.userId,
        actor_user_id: frank.userId,
        action: 'user.password_changed',
        target_id: frank.userId,
        changes: { password: { before: '***', after: '***' }, password_change_required: { before: true, after: false } },
      }),
    ]);
    const signedIn = await server.http.post('/api/auth/login', { email: frank.email, password: 'Franks-New-Password-1' });
    expect(signedIn.body).toHaveProperty('access_token');
    expect(await entriesOf(signedIn.headers.get('x-request-id'))).toEqual([]);
  });

  it('records an operator’s plan change in the account’s log, with no user or key acting', async () => {
    const dave = await signUpAndLogin(server);
    const res = await server.http.put(`/api/admin/users/${dave.userId}/plan`, { plan: 'basic' }, { headers: { 'x-admin-token': TEST_ADMIN_TOKEN } });
    expect(res.status).toBe(200);
    expect(await entriesOf(res.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ account_id: dave.userId, actor_user_id: null, actor_key_id: null, action: 'account.plan_changed', target_type: 'account', target_id: dave.userId, changes: { plan: { before: 'free', after: 'basic' } } }),
    ]);
  });

  it('the suite-wide check notices a change that left no entry, or a refused one that left one', async () => {
    const check = new AuditCheck();
    const created = await server.http.post('/api/jobs', jobDefinition(), as(alice));
    check.record('POST', '/api/jobs', {}, 200, created.headers.get('x-request-id'));
    check.record('POST', '/api/jobs/schedule-preview', {}, 200, 'not-audited-preview');
    expect(await check.mismatches(server.app)).toEqual([]);
    await sql(server, `DELETE FROM audit_events WHERE request_id = $1`, [created.headers.get('x-request-id')]);
    check.record('PUT', `/api/jobs/${created.body.job_id}`, {}, 422, 'refused-request');
    await sql(server, `INSERT INTO audit_events (account_id, action, target_type, request_id) VALUES ($1, 'job.updated', 'job', 'refused-request')`, [alice.userId]);
    const found = await check.mismatches(server.app);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('POST /api/jobs answered 200 and left 0 audit entries (expected 1');
    expect(found[1]).toContain('answered 422 and left 1 audit entries (expected 0');
    // Put things back as they were, or this file's own check fails at close.
    await sql(server, `DELETE FROM audit_events WHERE request_id = 'refused-request'`);
    await sql(server, `INSERT INTO audit_events (account_id, action, target_type, request_id) VALUES ($1, 'job.created', 'job', $2)`, [alice.userId, created.headers.get('x-request-id')]);
  });
});
