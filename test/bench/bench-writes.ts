/**
 * What a scenario writes to the database per execution: row versions per
 * table (inserted + updated + deleted, from the database's own statistics,
 * exact for the bench database) and WAL bytes and records (pg_stat_wal and
 * the WAL position: the whole server's, so on a PostgreSQL server other
 * databases' writes are included; on the embedded database they are the
 * scenario's alone). pg_stat_statements would split WAL per statement but
 * needs shared_preload_libraries, which a managed or shared server may not have.
 */
import type { Client } from 'pg';

export interface WriteCounters {
  /** inserted + updated + deleted rows per table; HOT updates counted apart. */
  rows: Map<string, { written: number; hot: number }>;
  walBytes: number;
  walRecords: number | null;
  walFpi: number | null;
}

/** Flushes this session's pending statistics (PostgreSQL 15+; a no-op elsewhere) so the next read sees them. */
async function flushOwn(sql: Client): Promise<void> {
  await sql.query(`SELECT pg_stat_force_next_flush()`).catch(() => undefined);
  await sql.query(`SELECT 1`);
}

export async function readCounters(sql: Client): Promise<WriteCounters> {
  await flushOwn(sql);
  await sql.query(`SELECT pg_stat_clear_snapshot()`);
  const tables = await sql.query<{ relname: string; written: string; hot: string }>(
    `SELECT relname, (n_tup_ins + n_tup_upd + n_tup_del)::text AS written, n_tup_hot_upd::text AS hot FROM pg_stat_user_tables`,
  );
  const [lsn] = (await sql.query<{ bytes: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS bytes`)).rows;
  const wal = await sql
    .query<{ records: string; fpi: string }>(`SELECT wal_records::text AS records, wal_fpi::text AS fpi FROM pg_stat_wal`)
    .then((r) => r.rows[0])
    .catch(() => undefined);
  return {
    rows: new Map(tables.rows.map((t) => [t.relname, { written: Number(t.written), hot: Number(t.hot) }])),
    walBytes: Number(lsn.bytes),
    walRecords: wal ? Number(wal.records) : null,
    walFpi: wal ? Number(wal.fpi) : null,
  };
}

/**
 * Counters once the statistics have settled: a backend reports its counts
 * when it goes idle (at most once a second) and when it exits, so the read
 * repeats until two reads 300 ms apart agree (bounded at 5 s).
 */
export async function settledCounters(sql: Client): Promise<WriteCounters> {
  let last = await readCounters(sql);
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await readCounters(sql);
    if (total(next) === total(last)) return next;
    last = next;
  }
  return last;
}

function total(c: WriteCounters): number {
  let sum = 0;
  for (const { written } of c.rows.values()) sum += written;
  return sum;
}

export interface WritesPerExecution {
  executions: number;
  /** Row versions written per execution, per table (tables with none left out), and their sum. */
  perTable: Array<{ table: string; rows: number; hot: number }>;
  rows: number;
  walBytes: number;
  walRecords: number | null;
  walFpi: number | null;
}

/** The difference of two readings over `executions` executions (the bench's own inserts of jobs taken out). */
export function perExecution(before: WriteCounters, after: WriteCounters, executions: number, ownInserts: Record<string, number>): WritesPerExecution {
  const perTable: WritesPerExecution['perTable'] = [];
  for (const [table, a] of after.rows) {
    const b = before.rows.get(table) ?? { written: 0, hot: 0 };
    const written = a.written - b.written - (ownInserts[table] ?? 0);
    if (written > 0) perTable.push({ table, rows: written / executions, hot: (a.hot - b.hot) / executions });
  }
  perTable.sort((x, y) => y.rows - x.rows);
  return {
    executions,
    perTable,
    rows: perTable.reduce((sum, t) => sum + t.rows, 0),
    walBytes: (after.walBytes - before.walBytes) / executions,
    walRecords: after.walRecords !== null && before.walRecords !== null ? (after.walRecords - before.walRecords) / executions : null,
    walFpi: after.walFpi !== null && before.walFpi !== null ? (after.walFpi - before.walFpi) / executions : null,
  };
}

export function describeWrites(label: string, w: WritesPerExecution): string {
  const tables = w.perTable.map((t) => `${t.table} ${t.rows.toFixed(2)}${t.hot > 0 ? ` (${t.hot.toFixed(2)} HOT)` : ''}`).join(', ');
  const records = w.walRecords !== null ? `, ${w.walRecords.toFixed(1)} WAL records (${(w.walFpi ?? 0).toFixed(2)} full pages)` : '';
  return `  ${label}: per execution (${w.executions.toLocaleString('en')} executions): ${w.rows.toFixed(2)} rows written [${tables}]; ${Math.round(w.walBytes).toLocaleString('en')} WAL bytes${records}\n`;
}
