import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { booleanArray, instantArray, integerArray, uuidArray } from '../../backend/src/common/database/array-literal';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/** The literals against the database itself (PostgreSQL or the embedded one, as the run is set): the same values as the driver's own arrays. */
describe('array literals for batch statements', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase(2);
    db = new DataSource({ type: 'postgres', url: database.url });
    await db.initialize();
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const both = async (type: string, values: unknown[], literal: string) => {
    const [row] = await db.query(`SELECT $1::${type}[]::text AS ours, $2::${type}[]::text AS driver`, [literal, values]);
    return row as { ours: string; driver: string };
  };

  it('reads uuids, nulls among them, as the driver sends them', async () => {
    const ids = ['0f8b2c7e-6c1a-4a53-9b1e-2f3d4c5b6a70', null, 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    const { ours, driver } = await both('uuid', ids, uuidArray(ids));
    expect(ours).toBe(driver);
    expect(ours).toBe('{0f8b2c7e-6c1a-4a53-9b1e-2f3d4c5b6a70,NULL,ffffffff-ffff-4fff-bfff-ffffffffffff}');
  });

  it('reads instants to the millisecond, whatever the session time zone, and nulls', async () => {
    await db.query(`SET TIME ZONE 'America/St_Johns'`);
    const instants = [new Date('2026-11-28T10:00:00.123Z'), null, new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999)), new Date('2026-03-29T01:30:00.000Z')];
    const [row] = await db.query(`SELECT array(SELECT (extract(epoch FROM t) * 1000)::bigint FROM unnest($1::timestamptz[]) AS t)::text AS ms`, [instantArray(instants)]);
    expect((row as { ms: string }).ms).toBe(`{${instants.map((d) => (d === null ? 'NULL' : d.getTime())).join(',')}}`);
    const { ours, driver } = await both('timestamptz', instants, instantArray(instants));
    expect(ours).toBe(driver);
  });

  it('reads integers (negative, zero, large, null) and booleans', async () => {
    const numbers = [0, -17, 2_147_483_647, null, 504];
    expect(await both('int', numbers, integerArray(numbers))).toEqual({ ours: '{0,-17,2147483647,NULL,504}', driver: '{0,-17,2147483647,NULL,504}' });
    const flags = [true, false, false, true];
    expect(await both('boolean', flags, booleanArray(flags))).toEqual({ ours: '{t,f,f,t}', driver: '{t,f,f,t}' });
  });

  it('reads empty arrays', async () => {
    expect((await both('uuid', [], uuidArray([]))).ours).toBe('{}');
    expect((await both('timestamptz', [], instantArray([]))).ours).toBe('{}');
  });

  it('fails the statement, as before, for an id that is not a uuid (a comma cannot smuggle in a second id)', async () => {
    await expect(db.query(`SELECT $1::uuid[]`, [uuidArray(['not-a-uuid'])])).rejects.toThrow(/invalid input syntax for type uuid/);
    await expect(db.query(`SELECT $1::uuid[]`, [uuidArray(['0f8b2c7e-6c1a-4a53-9b1e-2f3d4c5b6a70,x'])])).rejects.toThrow(/invalid input syntax for type uuid/);
  });
});
