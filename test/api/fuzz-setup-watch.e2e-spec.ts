import { Client } from 'pg';
import { SetupWatch } from '../support/setup-watch';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The fuzz suites' set-up names what it waits for (test/support/setup-watch.ts):
 * a step stuck behind a database that never answers fails with the step's
 * name and, on the embedded database, which connection holds its single
 * session and who waits for it, instead of jest's anonymous hook timeout.
 */
describe('a set-up step that waits too long', () => {
  let db: TestDatabase;
  let holder: Client;
  let waiter: Client;

  beforeAll(async () => {
    db = await createTestDatabase(2);
    holder = new Client({ connectionString: db.url });
    waiter = new Client({ connectionString: db.url });
    await holder.connect();
    await waiter.connect();
    await holder.query('CREATE TABLE held (id int)');
  });

  afterAll(async () => {
    await holder?.end();
    await waiter?.end();
    await db?.drop();
  });

  it('fails naming the step, the steps done and the database it waits for', async () => {
    const watch = new SetupWatch('watched suite', 1_500);
    await watch.step('a quick step', async () => undefined);
    await holder.query('BEGIN');
    // A table lock on PostgreSQL; on the embedded database the open transaction alone holds the single session.
    await holder.query('LOCK TABLE held IN ACCESS EXCLUSIVE MODE');
    const blocked = waiter.query('SELECT count(*) FROM held WHERE id = $1', [1]);
    const failure = await watch.step('read the held table', () => blocked).then(
      () => null,
      (error: Error) => error.message,
    );
    await holder.query('ROLLBACK');
    await blocked; // answered once the session is free again

    expect(failure).toContain('watched suite: set-up still waiting at step "read the held table"');
    expect(failure).toMatch(/steps done: a quick step \d+\.\d s/);
    if (db.kind === 'embedded') {
      expect(failure).toMatch(/session held by connection #\d+ for \d+\.\d s \(in a transaction, its last message '[A-Z]'\), \d+ message\(s\) of connection\(s\) #\d+ waiting for it/);
    } else {
      expect(failure).toContain('databases: postgres: a PostgreSQL server database');
    }
  });
});
