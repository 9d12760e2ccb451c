import { randomBytes } from 'node:crypto';
import { INVITATIONS_PER_HOUR, MAX_MEMBERS_PER_ACCOUNT, MAX_TEAM_ACCOUNTS_PER_USER, TEAM_MESSAGES } from '@cronbeam/shared/accounts/account-rules';
import { ACCOUNT_MESSAGES, roleRefusal } from '@cronbeam/shared/accounts/account-messages';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { openEventStream } from '../support/event-stream';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, sql } from './jobs-fixtures';

jest.setTimeout(180_000);

/**
 * Team accounts over HTTP: creating one, inviting by email (a single-use
 * link read from the dev outbox), accepting with the invited address, roles,
 * transfer, removal; the role guard and account selection as members see
 * them. Runs on whichever database the suite is given (both in CI).
 */
describe('accounts: members and invitations', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  const inAccount = (user: SignedInAccount, accountId: string) => ({ token: user.accessToken, headers: { 'x-cronbeam-account': accountId } });

  async function createTeam(owner: SignedInAccount, name = 'Ops team'): Promise<string> {
    const created = await server.http.post('/api/accounts', { name }, { token: owner.accessToken });
    expect(created.status).toBe(200);
    return created.body.id;
  }

  /** The token of the newest invitation mailed to the address (from the link's #token=). */
  async function mailedToken(email: string): Promise<string> {
    const outbox = await server.http.get<Array<{ to: string; text: string }>>('/api/dev/outbox');
    const mail = outbox.body.find((m) => m.to.toLowerCase() === email.toLowerCase() && m.text.includes('#token='));
    const token = mail?.text.match(/#token=([\w-]+)/)?.[1];
    if (!token) throw new Error(`no invitation mailed to ${email}`);
    return token;
  }

  async function invite(by: SignedInAccount, accountId: string, email: string, role: string) {
    return server.http.post(`/api/accounts/${accountId}/invitations`, { email, role }, { token: by.accessToken });
  }

  /** A new user who joined the team with `role` through the real invitation flow. */
  async function join(owner: SignedInAccount, accountId: string, role: string): Promise<SignedInAccount> {
    const member = await signUpAndLogin(server);
    expect((await invite(owner, accountId, member.email, role)).status).toBe(200);
    const accepted = await server.http.post('/api/invitations/accept', { token: await mailedToken(member.email) }, { token: member.accessToken });
    expect(accepted.status).toBe(200);
    return member;
  }

  it('creates a team account its creator owns, listed beside the personal account with the role in each', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner, 'Platform');
    const mine = await server.http.get('/api/accounts', { token: owner.accessToken });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([
      expect.objectContaining({ id: owner.userId, personal: true, role: 'owner' }),
      expect.objectContaining({ id: teamId, name: 'Platform', personal: false, role: 'owner' }),
    ]);
    expect((await server.http.get(`/api/accounts/${teamId}`, { token: owner.accessToken })).body).toMatchObject({ id: teamId, name: 'Platform', role: 'owner' });
    const members = await server.http.get(`/api/accounts/${teamId}/members`, { token: owner.accessToken });
    expect(members.body).toEqual([expect.objectContaining({ user_id: owner.userId, email: owner.email, role: 'owner' })]);
    const invalid = await server.http.post('/api/accounts', { name: '  ' }, { token: owner.accessToken });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0]).toMatchObject({ loc: ['body', 'name'], msg: TEAM_MESSAGES.nameRequired });
  });

  it('invites by email: the link says what it is, works only for the invited address, once', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner, 'Billing squad');
    const invitee = await signUpAndLogin(server);
    const stranger = await signUpAndLogin(server);
    const sent = await invite(owner, teamId, invitee.email.toUpperCase(), 'viewer');
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ email: invitee.email.toUpperCase(), role: 'viewer', invited_by: owner.userId });
    const token = await mailedToken(invitee.email);

    const preview = await server.http.get(`/api/invitations/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ account_name: 'Billing squad', role: 'viewer', email: invitee.email.toUpperCase(), expired: false, used: false });
    expect((await server.http.get(`/api/invitations/${token}x`)).status).toBe(404);

    const wrong = await server.http.post('/api/invitations/accept', { token }, { token: stranger.accessToken });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ detail: TEAM_MESSAGES.wrongAddress });
    expect((await server.http.post('/api/invitations/accept', { token })).status).toBe(401);

    const accepted = await server.http.post('/api/invitations/accept', { token }, { token: invitee.accessToken });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: teamId, name: 'Billing squad', role: 'viewer', personal: false });
    const again = await server.http.post('/api/invitations/accept', { token }, { token: invitee.accessToken });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: TEAM_MESSAGES.invitationUnusable });
    expect((await server.http.get(`/api/invitations/${token}`)).body).toMatchObject({ used: true });

    const members = await server.http.get(`/api/accounts/${teamId}/members`, { token: invitee.accessToken });
    expect(members.body.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      [owner.userId, 'owner'],
      [invitee.userId, 'viewer'],
    ]);
    // The stored row has only the token's hash.
    const stored = await sql<{ token_hash: string }>(server, `SELECT token_hash FROM account_invitations WHERE account_id = $1`, [teamId]);
    expect(stored[0]!.token_hash).not.toContain(token);
  });

  it('refuses an expired invitation, and lets the address be invited again', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const invitee = await signUpAndLogin(server);
    expect((await invite(owner, teamId, invitee.email, 'editor')).status).toBe(200);
    const token = await mailedToken(invitee.email);
    await sql(server, `UPDATE account_invitations SET expires_at = now() - interval '1 second' WHERE account_id = $1`, [teamId]);
    expect((await server.http.get(`/api/invitations/${token}`)).body).toMatchObject({ expired: true });
    const refused = await server.http.post('/api/invitations/accept', { token }, { token: invitee.accessToken });
    expect(refused.status).toBe(409);
    expect((await server.http.get(`/api/accounts/${teamId}/invitations`, { token: owner.accessToken })).body).toEqual([]);

    expect((await invite(owner, teamId, invitee.email, 'editor')).status).toBe(200);
    const fresh = await mailedToken(invitee.email);
    expect(fresh).not.toBe(token);
    expect((await server.http.post('/api/invitations/accept', { token: fresh }, { token: invitee.accessToken })).status).toBe(200);
    // A second invitation to a member is refused.
    const member = await invite(owner, teamId, invitee.email, 'viewer');
    expect(member.status).toBe(409);
    expect(member.body).toEqual({ detail: TEAM_MESSAGES.alreadyMember });
  });

  it('accepts an invitation once when several acceptances arrive together', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const invitee = await signUpAndLogin(server);
    expect((await invite(owner, teamId, invitee.email, 'editor')).status).toBe(200);
    const token = await mailedToken(invitee.email);
    const answers = await Promise.all(Array.from({ length: 8 }, () => server.http.post('/api/invitations/accept', { token }, { token: invitee.accessToken })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await sql<{ n: number }>(server, `SELECT count(*)::int AS n FROM account_members WHERE account_id = $1 AND user_id = $2`, [teamId, invitee.userId]);
    expect(rows[0]!.n).toBe(1);
  });

  it('lists open invitations, revokes one (its link stops working), and one open invitation per address', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const invitee = await signUpAndLogin(server);
    const sent = await invite(owner, teamId, invitee.email, 'admin');
    const token = await mailedToken(invitee.email);
    const twice = await invite(owner, teamId, invitee.email, 'viewer');
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: TEAM_MESSAGES.alreadyInvited });
    const open = await server.http.get(`/api/accounts/${teamId}/invitations`, { token: owner.accessToken });
    expect(open.body).toEqual([expect.objectContaining({ id: sent.body.id, email: invitee.email, role: 'admin' })]);
    expect((await server.http.delete(`/api/accounts/${teamId}/invitations/${sent.body.id}`, { token: owner.accessToken })).status).toBe(200);
    expect((await server.http.delete(`/api/accounts/${teamId}/invitations/${sent.body.id}`, { token: owner.accessToken })).status).toBe(404);
    expect((await server.http.get(`/api/accounts/${teamId}/invitations`, { token: owner.accessToken })).body).toEqual([]);
    expect((await server.http.post('/api/invitations/accept', { token }, { token: invitee.accessToken })).status).toBe(409);
    const bad = await invite(owner, teamId, 'not-an-address', 'owner');
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc[1]).sort()).toEqual(['email', 'role']);
  });

  it('an invited viewer reads the account but cannot change anything in it', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const viewer = await join(owner, teamId, 'viewer');
    const refusal = { detail: roleRefusal('viewer') };
    expect((await server.http.get('/api/jobs', inAccount(viewer, teamId))).status).toBe(200);
    expect((await server.http.get(`/api/accounts/${teamId}/members`, { token: viewer.accessToken })).status).toBe(200);
    const attempts = [
      await server.http.post('/api/jobs', jobDefinition({ name: 'nope' }), inAccount(viewer, teamId)),
      await server.http.post('/api/monitors', { name: 'nope' }, inAccount(viewer, teamId)),
      await server.http.post('/api/api-keys/generate', { name: 'nope' }, inAccount(viewer, teamId)),
      await server.http.patch(`/api/accounts/${teamId}`, { name: 'Renamed' }, { token: viewer.accessToken }),
      await invite(viewer, teamId, 'someone@example.test', 'viewer'),
      await server.http.patch(`/api/accounts/${teamId}/members/${owner.userId}`, { role: 'viewer' }, { token: viewer.accessToken }),
      await server.http.delete(`/api/accounts/${teamId}/members/${owner.userId}`, { token: viewer.accessToken }),
    ];
    for (const answer of attempts) expect({ status: answer.status, body: answer.body }).toEqual({ status: 403, body: refusal });
  });

  it('an editor changes resources but cannot manage members or invitations; an admin can', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const editor = await join(owner, teamId, 'editor');
    const admin = await join(owner, teamId, 'admin');
    expect((await server.http.post('/api/jobs', jobDefinition({ name: 'by-editor' }), inAccount(editor, teamId))).status).toBe(200);
    const refused = [
      await invite(editor, teamId, 'x@example.test', 'viewer'),
      await server.http.get(`/api/accounts/${teamId}/invitations`, { token: editor.accessToken }),
      await server.http.patch(`/api/accounts/${teamId}/members/${admin.userId}`, { role: 'viewer' }, { token: editor.accessToken }),
      await server.http.delete(`/api/accounts/${teamId}/members/${admin.userId}`, { token: editor.accessToken }),
    ];
    for (const answer of refused) expect({ status: answer.status, body: answer.body }).toEqual({ status: 403, body: { detail: roleRefusal('editor') } });

    // The admin demotes the editor, which takes effect on the editor's next request.
    expect((await server.http.patch(`/api/accounts/${teamId}/members/${editor.userId}`, { role: 'viewer' }, { token: admin.accessToken })).status).toBe(200);
    const demoted = await server.http.post('/api/jobs', jobDefinition({ name: 'after-demotion' }), inAccount(editor, teamId));
    expect(demoted.status).toBe(403);
    expect(demoted.body).toEqual({ detail: roleRefusal('viewer') });
    // Nobody demotes or removes the owner, nor makes a second one.
    const demoteOwner = await server.http.patch(`/api/accounts/${teamId}/members/${owner.userId}`, { role: 'admin' }, { token: admin.accessToken });
    expect(demoteOwner.status).toBe(409);
    expect(demoteOwner.body).toEqual({ detail: TEAM_MESSAGES.ownerUntouchable });
    expect((await server.http.delete(`/api/accounts/${teamId}/members/${owner.userId}`, { token: admin.accessToken })).status).toBe(409);
    expect((await server.http.patch(`/api/accounts/${teamId}/members/${editor.userId}`, { role: 'owner' }, { token: admin.accessToken })).status).toBe(422);
    // The admin cannot delete or transfer the account (owner only).
    expect((await server.http.post(`/api/accounts/${teamId}/transfer`, { user_id: admin.userId }, { token: admin.accessToken })).status).toBe(403);
    expect((await server.http.delete(`/api/accounts/${teamId}`, { token: admin.accessToken })).status).toBe(403);
  });

  it('an editor manages only the API keys they made; an admin manages every key of the account', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const editor = await join(owner, teamId, 'editor');
    const admin = await join(owner, teamId, 'admin');
    const generate = async (user: SignedInAccount) => (await server.http.post('/api/api-keys/generate', { name: 'k' }, inAccount(user, teamId))).body.key_id as string;
    const [editorKey, otherEditorKey, adminKey] = [await generate(editor), await generate(editor), await generate(admin)];
    expect((await server.http.get('/api/api-keys', inAccount(editor, teamId))).body).toHaveLength(3);
    const others = await server.http.delete(`/api/api-keys/${adminKey}`, inAccount(editor, teamId));
    expect(others.status).toBe(404);
    expect((await server.http.delete(`/api/api-keys/${editorKey}`, inAccount(editor, teamId))).status).toBe(200);
    expect((await server.http.delete(`/api/api-keys/${otherEditorKey}`, inAccount(admin, teamId))).status).toBe(200);
    expect((await server.http.get('/api/api-keys', inAccount(owner, teamId))).body.map((k: { key_id: string }) => k.key_id)).toEqual([adminKey]);
  });

  it('transfers ownership to a member: the old owner becomes an admin', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const editor = await join(owner, teamId, 'editor');
    const outsider = await signUpAndLogin(server);
    const notMember = await server.http.post(`/api/accounts/${teamId}/transfer`, { user_id: outsider.userId }, { token: owner.accessToken });
    expect(notMember.status).toBe(422);
    expect((await server.http.post(`/api/accounts/${teamId}/transfer`, { user_id: owner.userId }, { token: owner.accessToken })).status).toBe(409);
    expect((await server.http.post(`/api/accounts/${owner.userId}/transfer`, { user_id: editor.userId }, { token: owner.accessToken })).status).toBe(409);

    const moved = await server.http.post(`/api/accounts/${teamId}/transfer`, { user_id: editor.userId }, { token: owner.accessToken });
    expect(moved.status).toBe(200);
    const members = await server.http.get(`/api/accounts/${teamId}/members`, { token: editor.accessToken });
    expect(members.body.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      [editor.userId, 'owner'],
      [owner.userId, 'admin'],
    ]);
    const again = await server.http.post(`/api/accounts/${teamId}/transfer`, { user_id: editor.userId }, { token: owner.accessToken });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ detail: roleRefusal('admin') });
  });

  it('removing a member cuts their session, event stream and API keys off the account at once; a member may leave, the owner may not', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const member = await join(owner, teamId, 'editor');
    const leaver = await join(owner, teamId, 'viewer');
    expect((await server.http.get('/api/jobs', inAccount(member, teamId))).status).toBe(200);
    const key = await server.http.post('/api/api-keys/generate', { name: 'team-key' }, inAccount(member, teamId));
    expect(key.status).toBe(200);
    const prog = () => server.http.get('/prog/jobs', { headers: { authorization: `Bearer ${key.body.api_key}` } });
    expect((await prog()).status).toBe(200);
    const teamStream = await openEventStream(server, member.accessToken, undefined, { 'x-cronbeam-account': teamId });
    const ownStream = await openEventStream(server, member.accessToken);
    expect([teamStream.res.status, ownStream.res.status]).toEqual([200, 200]);

    expect((await server.http.delete(`/api/accounts/${teamId}/members/${member.userId}`, { token: owner.accessToken })).status).toBe(200);
    // Their key for the team is refused at once, and gone with them.
    expect((await prog()).status).toBe(401);
    expect(await sql(server, `SELECT id FROM api_keys WHERE id = $1`, [key.body.key_id])).toEqual([]);
    // The event stream open in the team ends at once; the one in their own account stays.
    expect(await teamStream.waitForEnd()).toBe(true);
    expect(await ownStream.waitForEnd(300)).toBe(false);
    await ownStream.close();
    const cut = await server.http.get('/api/jobs', inAccount(member, teamId));
    expect(cut.status).toBe(404);
    expect(cut.body).toEqual({ detail: ACCOUNT_MESSAGES.accountNotFound });
    expect((await server.http.get(`/api/accounts/${teamId}`, { token: member.accessToken })).status).toBe(404);
    // Their own account and their user routes still work.
    expect((await server.http.get('/api/jobs', { token: member.accessToken })).status).toBe(200);
    expect((await server.http.get('/api/accounts', { token: member.accessToken })).body.map((a: { id: string }) => a.id)).toEqual([member.userId]);

    expect((await server.http.delete(`/api/accounts/${teamId}/members/${owner.userId}`, { token: leaver.accessToken })).status).toBe(403);
    expect((await server.http.delete(`/api/accounts/${teamId}/membership`, { token: leaver.accessToken })).status).toBe(200);
    expect((await server.http.get('/api/jobs', inAccount(leaver, teamId))).status).toBe(404);
    const ownerLeaves = await server.http.delete(`/api/accounts/${teamId}/membership`, { token: owner.accessToken });
    expect(ownerLeaves.status).toBe(409);
    expect((await server.http.delete(`/api/accounts/${teamId}/members/${randomUuid()}`, { token: owner.accessToken })).status).toBe(404);
  });

  it('tells nothing about accounts the caller is not in: the same 404 for a stranger\'s account, an unknown id and a malformed one', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner, 'Secret project');
    const sent = await invite(owner, teamId, `someone-${randomBytes(4).toString('hex')}@example.test`, 'viewer');
    const outsider = await signUpAndLogin(server);
    const outsiderTeam = await createTeam(outsider);
    const expected = { status: 404, body: { detail: ACCOUNT_MESSAGES.accountNotFound } };
    for (const accountId of [teamId, randomUuid(), 'not-a-uuid']) {
      for (const answer of [
        await server.http.get('/api/jobs', inAccount(outsider, accountId)),
        await server.http.get(`/api/accounts/${accountId}`, { token: outsider.accessToken }),
        await server.http.get(`/api/accounts/${accountId}/members`, { token: outsider.accessToken }),
        await server.http.patch(`/api/accounts/${accountId}`, { name: 'mine' }, { token: outsider.accessToken }),
        await server.http.delete(`/api/accounts/${accountId}/invitations/${sent.body.id}`, { token: outsider.accessToken }),
      ]) {
        expect({ status: answer.status, body: answer.body }).toEqual(expected);
      }
    }
    // Through their own account, the outsider cannot reach the team's invitation either.
    expect((await server.http.delete(`/api/accounts/${outsiderTeam}/invitations/${sent.body.id}`, { token: outsider.accessToken })).status).toBe(404);
    expect((await server.http.get(`/api/accounts/${teamId}/invitations`, { token: owner.accessToken })).body).toHaveLength(1);
    // The team's name appears nowhere the outsider can read.
    expect(JSON.stringify((await server.http.get('/api/accounts', { token: outsider.accessToken })).body)).not.toContain('Secret project');
  });

  it('renames and deletes a team account (owner, recent sign-in); the personal account cannot be deleted this way', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const member = await join(owner, teamId, 'admin');
    const renamed = await server.http.patch(`/api/accounts/${teamId}`, { name: 'Renamed' }, { token: member.accessToken });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', role: 'admin' });
    expect((await server.http.delete(`/api/accounts/${owner.userId}`, { token: owner.accessToken })).status).toBe(409);
    const stream = await openEventStream(server, member.accessToken, undefined, { 'x-cronbeam-account': teamId });
    expect(stream.res.status).toBe(200);
    const deleted = await server.http.delete(`/api/accounts/${teamId}`, { token: owner.accessToken });
    expect(deleted.status).toBe(200);
    expect(await stream.waitForEnd()).toBe(true);
    // The team's log went with it; the deletion's entry is in the deleting owner's personal account.
    expect(await sql(server, `SELECT id FROM audit_events WHERE account_id = $1`, [teamId])).toEqual([]);
    expect(await entriesOf(deleted)).toEqual([
      {
        account_id: owner.userId,
        actor_user_id: owner.userId,
        actor_key_id: null,
        action: 'account.deleted',
        target_type: 'account',
        target_id: teamId,
        changes: { name: { before: 'Renamed', after: null }, members: { before: 2, after: null } },
      },
    ]);
    const ownersLog = await server.http.get('/api/audit?action=account', { token: owner.accessToken });
    expect(ownersLog.body.events.map((e: { action: string; target_id: string }) => [e.action, e.target_id])).toEqual([['account.deleted', teamId]]);
    expect((await server.http.get('/api/accounts', { token: member.accessToken })).body.map((a: { id: string }) => a.id)).toEqual([member.userId]);
    expect((await server.http.get('/api/jobs', inAccount(member, teamId))).status).toBe(404);
  });

  /** The audit entries one request left (by its echoed request id), oldest first. */
  async function entriesOf(answer: { headers: Headers }) {
    return sql<{ account_id: string; actor_user_id: string | null; actor_key_id: string | null; action: string; target_type: string; target_id: string; changes: Record<string, { before: unknown; after: unknown }> }>(
      server,
      `SELECT account_id, actor_user_id, actor_key_id, action, target_type, target_id, changes FROM audit_events WHERE request_id = $1 ORDER BY id`,
      [answer.headers.get('x-request-id')],
    );
  }

  it('records each change to the account, its members and invitations as one entry in the account, naming who made it', async () => {
    const owner = await signUpAndLogin(server);
    const created = await server.http.post('/api/accounts', { name: 'Audited' }, { token: owner.accessToken });
    expect(created.status).toBe(200);
    const teamId: string = created.body.id;
    // Made from the personal account, recorded in the new one.
    expect(await entriesOf(created)).toEqual([
      { account_id: teamId, actor_user_id: owner.userId, actor_key_id: null, action: 'account.created', target_type: 'account', target_id: teamId, changes: { name: { before: null, after: 'Audited' } } },
    ]);
    const renamed = await server.http.patch(`/api/accounts/${teamId}`, { name: 'Audited too' }, { token: owner.accessToken });
    expect(await entriesOf(renamed)).toEqual([expect.objectContaining({ account_id: teamId, action: 'account.renamed', target_id: teamId, changes: { name: { before: 'Audited', after: 'Audited too' } } })]);

    const invitee = await signUpAndLogin(server);
    const sent = await invite(owner, teamId, invitee.email, 'editor');
    const token = await mailedToken(invitee.email);
    const [invited] = await entriesOf(sent);
    expect(invited).toEqual(
      expect.objectContaining({ account_id: teamId, actor_user_id: owner.userId, action: 'invitation.created', target_type: 'invitation', target_id: sent.body.id }),
    );
    expect(invited!.changes).toEqual({ email: { before: null, after: invitee.email }, role: { before: null, after: 'editor' }, expires_at: { before: null, after: sent.body.expires_at } });
    expect(JSON.stringify(invited)).not.toContain(token);

    // Accepting is recorded in the team (the request names no account), the accepting user its actor.
    const accepted = await server.http.post('/api/invitations/accept', { token }, { token: invitee.accessToken });
    expect(accepted.status).toBe(200);
    expect(await entriesOf(accepted)).toEqual([
      {
        account_id: teamId,
        actor_user_id: invitee.userId,
        actor_key_id: null,
        action: 'member.joined',
        target_type: 'member',
        target_id: invitee.userId,
        changes: { email: { before: null, after: invitee.email }, role: { before: null, after: 'editor' }, invitation_id: { before: null, after: sent.body.id } },
      },
    ]);
    const promoted = await server.http.patch(`/api/accounts/${teamId}/members/${invitee.userId}`, { role: 'admin' }, { token: owner.accessToken });
    expect(promoted.status).toBe(200);
    expect(await entriesOf(promoted)).toEqual([expect.objectContaining({ account_id: teamId, action: 'member.role_changed', target_id: invitee.userId, changes: { role: { before: 'editor', after: 'admin' } } })]);

    const other = await invite(owner, teamId, `revoked-${randomBytes(3).toString('hex')}@example.test`, 'viewer');
    const revoked = await server.http.delete(`/api/accounts/${teamId}/invitations/${other.body.id}`, { token: owner.accessToken });
    expect(revoked.status).toBe(200);
    expect(await entriesOf(revoked)).toEqual([
      expect.objectContaining({ account_id: teamId, action: 'invitation.revoked', target_type: 'invitation', target_id: other.body.id, changes: { status: { before: 'open', after: 'revoked' } } }),
    ]);

    const transferred = await server.http.post(`/api/accounts/${teamId}/transfer`, { user_id: invitee.userId }, { token: owner.accessToken });
    expect(transferred.status).toBe(200);
    expect(await entriesOf(transferred)).toEqual([
      expect.objectContaining({ account_id: teamId, actor_user_id: owner.userId, action: 'account.ownership_transferred', target_id: teamId, changes: { owner: { before: owner.userId, after: invitee.userId } } }),
    ]);
    const left = await server.http.delete(`/api/accounts/${teamId}/membership`, { token: owner.accessToken });
    expect(left.status).toBe(200);
    expect(await entriesOf(left)).toEqual([
      expect.objectContaining({ account_id: teamId, actor_user_id: owner.userId, action: 'member.left', target_id: owner.userId, changes: { email: { before: owner.email, after: null }, role: { before: 'admin', after: null } } }),
    ]);
    // The new owner reads all of it in the account's log, newest first.
    const log = await server.http.get('/api/audit', inAccount(invitee, teamId));
    expect(log.body.events.map((e: { action: string }) => e.action)).toEqual([
      'member.left',
      'account.ownership_transferred',
      'invitation.revoked',
      'invitation.created',
      'member.role_changed',
      'member.joined',
      'invitation.created',
      'account.renamed',
      'account.created',
    ]);
  });

  it('records removing a member as one entry naming the API keys deleted with them, never their secrets', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const member = await join(owner, teamId, 'editor');
    const keys = [
      await server.http.post('/api/api-keys/generate', { name: 'deploy' }, inAccount(member, teamId)),
      await server.http.post('/api/api-keys/generate', { name: 'backup' }, inAccount(member, teamId)),
    ];
    const ownersKey = await server.http.post('/api/api-keys/generate', { name: 'owners' }, inAccount(owner, teamId));
    const removed = await server.http.delete(`/api/accounts/${teamId}/members/${member.userId}`, { token: owner.accessToken });
    expect(removed.status).toBe(200);
    const entries = await entriesOf(removed);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ account_id: teamId, actor_user_id: owner.userId, action: 'member.removed', target_type: 'member', target_id: member.userId });
    const named = keys.map((k) => ({ id: k.body.key_id, name: k.body.name, prefix: k.body.prefix }));
    expect(entries[0]!.changes).toEqual({
      email: { before: member.email, after: null },
      role: { before: 'editor', after: null },
      api_keys: { before: named.sort((a, b) => a.id.localeCompare(b.id)), after: null },
    });
    for (const key of keys) expect(JSON.stringify(entries)).not.toContain(key.body.api_key);
    // The owner's key stays, and no key got an entry of its own.
    expect((await server.http.get('/api/api-keys', inAccount(owner, teamId))).body.map((k: { key_id: string }) => k.key_id)).toEqual([ownersKey.body.key_id]);
    expect(await sql(server, `SELECT 1 FROM audit_events WHERE account_id = $1 AND action = 'api_key.deleted'`, [teamId])).toEqual([]);
  });

  it('leaves no entry for a refused change: a transfer to a non-member, the 51st seat, a role the owner keeps', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const admin = await join(owner, teamId, 'admin');
    const outsider = await signUpAndLogin(server);
    const before = await sql<{ n: number }>(server, `SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1`, [teamId]);
    const refused = [
      await server.http.post(`/api/accounts/${teamId}/transfer`, { user_id: outsider.userId }, { token: owner.accessToken }),
      await server.http.patch(`/api/accounts/${teamId}/members/${owner.userId}`, { role: 'viewer' }, { token: admin.accessToken }),
      await server.http.delete(`/api/accounts/${teamId}/members/${owner.userId}`, { token: admin.accessToken }),
      await server.http.delete(`/api/accounts/${teamId}/invitations/${randomUuid()}`, { token: owner.accessToken }),
    ];
    expect(refused.map((a) => a.status)).toEqual([422, 409, 409, 404]);
    // Fill every seat but one with open invitations: the next invitation takes the last seat, the one after is refused.
    await sql(
      server,
      `INSERT INTO account_invitations (account_id, email, role, token_hash, invited_by, expires_at)
       SELECT $1, 'seat-' || i || '@example.test', 'viewer', md5(random()::text || i), $2, now() + interval '1 day' FROM generate_series(1, $3::int) AS i`,
      [teamId, owner.userId, MAX_MEMBERS_PER_ACCOUNT - 2 - 1],
    );
    const last = await invite(owner, teamId, `last-${randomBytes(3).toString('hex')}@example.test`, 'viewer');
    expect(last.status).toBe(200);
    const overLimit = await invite(owner, teamId, `over-${randomBytes(3).toString('hex')}@example.test`, 'viewer');
    expect(overLimit.status).toBe(403);
    for (const answer of [...refused, overLimit]) expect(await entriesOf(answer)).toEqual([]);
    expect(await entriesOf(last)).toHaveLength(1);
    const after = await sql<{ n: number }>(server, `SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1`, [teamId]);
    expect(after[0]!.n).toBe(before[0]!.n + 1);
  });

  it('holds the seat limit when invitations race for the last seats', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const free = 4;
    // Open invitations hold seats: plant them so that `free` seats are left (the owner holds one).
    await sql(
      server,
      `INSERT INTO account_invitations (account_id, email, role, token_hash, invited_by, expires_at)
       SELECT $1, 'planted-' || i || '@example.test', 'viewer', md5(random()::text || i), $2, now() + interval '1 day' FROM generate_series(1, $3::int) AS i`,
      [teamId, owner.userId, MAX_MEMBERS_PER_ACCOUNT - 1 - free],
    );
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => invite(owner, teamId, `racer-${i}-${randomBytes(3).toString('hex')}@example.test`, 'viewer')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(free);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body.detail])).toEqual(Array.from({ length: 10 - free }, () => [403, TEAM_MESSAGES.tooManyMembers]));
    const seats = await sql<{ n: number }>(server, `SELECT count(*)::int AS n FROM account_invitations WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL`, [teamId]);
    expect(seats[0]!.n + 1).toBe(MAX_MEMBERS_PER_ACCOUNT);
  });

  it('holds the limit of team accounts one user owns when creations race', async () => {
    const owner = await signUpAndLogin(server);
    const tries = 30;
    const answers = await Promise.all(Array.from({ length: tries }, (_, i) => server.http.post('/api/accounts', { name: `Racer ${i}` }, { token: owner.accessToken })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(MAX_TEAM_ACCOUNTS_PER_USER);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body])).toEqual(Array.from({ length: tries - MAX_TEAM_ACCOUNTS_PER_USER }, () => [403, { detail: TEAM_MESSAGES.tooManyTeamAccounts }]));
    const owned = await sql<{ n: number }>(
      server,
      `SELECT count(*)::int AS n FROM account_members m JOIN accounts a ON a.id = m.account_id WHERE m.user_id = $1 AND m.role = 'owner' AND NOT a.personal`,
      [owner.userId],
    );
    expect(owned[0]!.n).toBe(MAX_TEAM_ACCOUNTS_PER_USER);
    // Deleting one frees its place.
    const teamIds = answers.filter((a) => a.status === 200).map((a) => a.body.id as string);
    expect((await server.http.delete(`/api/accounts/${teamIds[0]}`, { token: owner.accessToken })).status).toBe(200);
    expect((await server.http.post('/api/accounts', { name: 'Again' }, { token: owner.accessToken })).status).toBe(200);
    expect((await server.http.post('/api/accounts', { name: 'One too many' }, { token: owner.accessToken })).status).toBe(403);
  });

  it('holds the hourly invitation budget under concurrent invitations', async () => {
    const owner = await signUpAndLogin(server);
    const teamId = await createTeam(owner);
    const answers = await Promise.all(Array.from({ length: INVITATIONS_PER_HOUR + 5 }, (_, i) => invite(owner, teamId, `burst-${i}-${randomBytes(3).toString('hex')}@example.test`, 'viewer')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(INVITATIONS_PER_HOUR);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0]!.body).toEqual({ detail: TEAM_MESSAGES.tooManyInvitations });
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}
