import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { describeCron, nextRuns, parseCron } from '@cronbeam/shared/cron';
import { guarded, toolResult, ToolUsageError } from './tool-results';

export const MAX_LISTED_RUNS = 100;

const expressionArgument = z
  .string()
  .describe('A 5-field cron expression (minute hour day-of-month month day-of-week), evaluated in UTC as Cronbeam does.');

const fromArgument = z.iso
  .datetime({ offset: true, error: 'from must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z' })
  .optional()
  .describe('Start counting after this instant (ISO 8601); default now.');

/**
 * Cron helpers that run locally with the same parser and engine as the
 * Cronbeam scheduler (shared/src/cron), so what they say is what will run.
 * They need no API key.
 */
export function registerCronTools(server: McpServer): void {
  server.registerTool(
    'validate_cron',
    {
      title: 'Validate a cron expression',
      description: 'Checks a cron expression against the rules Cronbeam applies (5 fields, ranges, names, steps; no seconds or L/W/# extensions) and returns the error message the API would give, or its normalized form.',
      inputSchema: { cron_expression: expressionArgument },
      outputSchema: { valid: z.boolean(), error: z.string().nullable(), normalized: z.string().nullable() },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ cron_expression }) =>
      guarded(async () => {
        const parsed = parseCron(cron_expression);
        if (!parsed.ok) return toolResult(`Invalid: ${parsed.error}`, { valid: false, error: parsed.error, normalized: null });
        return toolResult(`Valid: '${parsed.cron.normalized}'.`, { valid: true, error: null, normalized: parsed.cron.normalized });
      }),
  );

  server.registerTool(
    'explain_cron',
    {
      title: 'Explain a cron expression',
      description: 'Describes a cron expression in plain English (times in UTC) and shows its next 5 run times.',
      inputSchema: { cron_expression: expressionArgument },
      outputSchema: { cron_expression: z.string(), valid: z.boolean(), description: z.string(), error: z.string().nullable(), next_runs: z.array(z.string()) },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ cron_expression }) =>
      guarded(async () => {
        const parsed = parseCron(cron_expression);
        if (!parsed.ok) {
          return toolResult(`'${cron_expression}' is not valid: ${parsed.error}`, { cron_expression, valid: false, description: parsed.error, error: parsed.error, next_runs: [] });
        }
        const description = describeCron(cron_expression);
        const runs = nextRuns(parsed.cron.normalized, 5).map((d) => d.toISOString());
        return toolResult(`'${parsed.cron.normalized}': ${description} (UTC). Next: ${runs.join(', ')}`, {
          cron_expression: parsed.cron.normalized,
          valid: true,
          description,
          error: null,
          next_runs: runs,
        });
      }),
  );

  server.registerTool(
    'next_cron_runs',
    {
      title: 'Next run times',
      description: `Lists the next run times (UTC, ISO 8601) of a cron expression, up to ${MAX_LISTED_RUNS}, optionally after a given instant and up to an end instant.`,
      inputSchema: {
        cron_expression: expressionArgument,
        count: z.number().int().min(1).max(MAX_LISTED_RUNS).default(5).describe(`How many run times (1-${MAX_LISTED_RUNS}, default 5).`),
        from: fromArgument,
        until: z.iso.datetime({ offset: true, error: 'until must be an ISO 8601 date-time' }).optional().describe('Stop at this instant (inclusive).'),
      },
      outputSchema: { cron_expression: z.string(), from: z.string(), runs: z.array(z.string()), count: z.number() },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ cron_expression, count, from, until }) =>
      guarded(async () => {
        const parsed = parseCron(cron_expression);
        if (!parsed.ok) throw new ToolUsageError(`'${cron_expression}' is not a valid cron expression: ${parsed.error}`);
        const start = from ? new Date(from) : new Date();
        const end = until ? new Date(until).getTime() : Infinity;
        const runs = nextRuns(parsed.cron.normalized, count, start)
          .filter((d) => d.getTime() <= end)
          .map((d) => d.toISOString());
        return toolResult(`${runs.length} run(s) of '${parsed.cron.normalized}' after ${start.toISOString()}:\n${runs.join('\n')}`, {
          cron_expression: parsed.cron.normalized,
          from: start.toISOString(),
          runs,
          count: runs.length,
        });
      }),
  );
}
