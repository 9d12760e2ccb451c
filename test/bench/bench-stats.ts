/** Summary statistics the benchmark prints. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export interface LatenessSummary {
  fired: number;
  expected: number;
  duplicates: number;
  missed: number;
  early: number;
  first: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  perSecond: number;
}

/** Arrivals (epoch ms) keyed by job, against each job's due instant. */
export function summarise(arrivals: Map<number, number[]>, dueOf: (job: number) => number, expected: number): LatenessSummary {
  const lateness: number[] = [];
  let duplicates = 0;
  let early = 0;
  let firstArrival = Infinity;
  let lastArrival = -Infinity;
  let earliestDue = Infinity;
  for (const [job, times] of arrivals) {
    duplicates += times.length - 1;
    const due = dueOf(job);
    earliestDue = Math.min(earliestDue, due);
    for (const t of times) {
      const late = t - due;
      if (late < 0) early++;
      lateness.push(late);
      firstArrival = Math.min(firstArrival, t);
      lastArrival = Math.max(lastArrival, t);
    }
  }
  lateness.sort((a, b) => a - b);
  const span = (lastArrival - Math.min(firstArrival, earliestDue)) / 1000;
  return {
    fired: arrivals.size,
    expected,
    duplicates,
    missed: expected - arrivals.size,
    early,
    first: firstArrival - earliestDue,
    p50: percentile(lateness, 50),
    p95: percentile(lateness, 95),
    p99: percentile(lateness, 99),
    max: lateness[lateness.length - 1] ?? NaN,
    perSecond: span > 0 ? lateness.length / span : NaN,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '-');

/** Prints rows as an aligned text table. */
export function table(title: string, rows: Array<Record<string, string | number>>): string {
  if (rows.length === 0) return `${title}\n(no rows)\n`;
  const headers = Object.keys(rows[0]);
  const cells = rows.map((r) => headers.map((h) => String(r[h])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ');
  return [title, line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

export function latenessRow(label: string, s: LatenessSummary): Record<string, string | number> {
  return {
    scenario: label,
    fired: `${s.fired}/${s.expected}`,
    dup: s.duplicates,
    missed: s.missed,
    early: s.early,
    first: ms(s.first),
    p50: ms(s.p50),
    p95: ms(s.p95),
    p99: ms(s.p99),
    max: ms(s.max),
    'exec/s': Number.isFinite(s.perSecond) ? Math.round(s.perSecond) : '-',
  };
}
