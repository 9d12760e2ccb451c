import type { JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import { useCallback, useRef, useState } from 'react';
import { formatUtc, formatUtcShort } from '../ui/format';
import { outcomeLabel } from './execution-details';

/** Drawing width before the real one is measured (and in environments without ResizeObserver). */
const DEFAULT_WIDTH = 600;
const HEIGHT = 160;
const PAD = { top: 12, right: 8, bottom: 22, left: 52 };

const timeOf = (run: JobLogEntry) => run.executed_at ?? run.scheduled_for;

/** A round upper bound for the duration axis (1, 2 or 5 × a power of ten). */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

/**
 * The duration axis: 0, one round step and two steps, the top at or above
 * the longest run. The step is a whole number of milliseconds, so the three
 * labels always differ (halving a 1 ms axis would print 0, 1, 1).
 */
export function durationTicks(longest: number): [number, number, number] {
  const step = Math.max(1, niceCeiling(longest / 2));
  return [0, step, 2 * step];
}

/** An axis label with its unit: ms below a second, s from there on. */
export function durationLabel(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(2))} s` : `${ms} ms`;
}

/**
 * The element's width in CSS pixels, so the chart draws at 1:1 and its text is
 * never stretched. A callback ref, because the figure appears only once there
 * are executions to draw.
 */
function useWidth(): [(node: Element | null) => void, number] {
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((node: Element | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!node || typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(([entry]) => setWidth(Math.max(200, Math.round(entry.contentRect.width))));
    observer.current.observe(node);
  }, []);
  return [ref, width];
}

/**
 * Recent executions of one job as bars over time: height is the duration,
 * colour the outcome. Drawn as plain SVG (no chart library: one small chart
 * does not justify one), with a text summary for screen readers.
 */
export function RunsChart({ history }: { history: JobLogEntry[] }) {
  const [ref, width] = useWidth();
  const runs = [...history].reverse();
  if (runs.length === 0) return null;
  const failed = runs.filter((r) => outcomeLabel(r) === 'FAILED').length;
  const longest = Math.max(...runs.map((r) => r.duration_ms ?? 0));
  const ticks = durationTicks(longest);
  const max = ticks[2];
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / runs.length;
  const barWidth = Math.max(2, Math.min(28, slot * 0.7));
  const summary = `${runs.length} recent executions: ${runs.length - failed} succeeded, ${failed} failed; the longest took ${longest} ms.`;

  return (
    <figure className="runs-chart" ref={ref}>
      <figcaption className="chart-legend">
        <span>
          <span className="dot dot-success" aria-hidden="true" /> Success
        </span>
        <span>
          <span className="dot dot-failed" aria-hidden="true" /> Failed
        </span>
        <span className="muted">Bar height: duration (ms)</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={summary} width={width} height={HEIGHT}>
        {ticks.map((tick) => {
          const y = PAD.top + plotHeight * (1 - tick / max);
          return (
            <g key={tick}>
              <line x1={PAD.left} x2={width - PAD.right} y1={y} y2={y} className="chart-grid" />
              <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="chart-axis" data-testid="duration-tick">
                {durationLabel(tick)}
              </text>
            </g>
          );
        })}
        {runs.map((run, i) => {
          const height = Math.max(2, ((run.duration_ms ?? 0) / max) * plotHeight);
          const x = PAD.left + slot * i + (slot - barWidth) / 2;
          const ok = outcomeLabel(run) === 'SUCCESS';
          return (
            <rect key={run.run_id} x={x} y={PAD.top + plotHeight - height} width={barWidth} height={height} rx={2} className={ok ? 'bar-success' : 'bar-failed'}>
              <title>{`${formatUtc(timeOf(run))}: ${ok ? 'success' : 'failed'}, ${run.duration_ms ?? 0} ms`}</title>
            </rect>
          );
        })}
        <text x={PAD.left} y={HEIGHT - 6} className="chart-axis">
          {formatUtcShort(timeOf(runs[0]))}
        </text>
        {runs.length > 1 && (
          <text x={width - PAD.right} y={HEIGHT - 6} textAnchor="end" className="chart-axis">
            {formatUtcShort(timeOf(runs[runs.length - 1]))}
          </text>
        )}
      </svg>
    </figure>
  );
}
