import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `plan_slots_within(used, max)`: answers `used`, or fails the statement
 * (and so the creating transaction, whose COMMIT then rolls back) when it is
 * over `max`. The plan's job limit is checked by a statement of its own after
 * the insert, and a check that must stop a transaction without the client
 * deciding between two statements has to be an error
 * (docs/adr/0138-one-plan-limit-rule.md). The counting stays in the quota
 * module's repository; this only refuses.
 */
export class PlanSlotsCheck1763811000001 implements MigrationInterface {
  name = 'PlanSlotsCheck1763811000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION plan_slots_within(used integer, max integer) RETURNS integer LANGUAGE plpgsql AS $fn$
      BEGIN
        IF used > max THEN
          RAISE EXCEPTION 'plan slots exceeded' USING ERRCODE = 'P0001', DETAIL = format('%s of %s', used, max);
        END IF;
        RETURN used;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION plan_slots_within(integer, integer)`);
  }
}
