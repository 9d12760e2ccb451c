import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CronbeamError } from '../api/cronbeam-errors';

/**
 * A successful result: a one-line summary and the data as JSON text for
 * clients that only read text, and the same data as structured content.
 */
export function toolResult(summary: string, data: object): CallToolResult {
  return {
    content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(data, null, 2)}` }],
    structuredContent: data as Record<string, unknown>,
  };
}

/** Arguments that pass their schema but cannot be used (e.g. an end before the start); the message is shown as is. */
export class ToolUsageError extends Error {}

/**
 * A failed call as a tool error (isError), never a protocol error: the model
 * reads the message and can fix its arguments, ask for credentials or retry.
 * The API's own detail travels along as JSON.
 */
export function toolError(error: unknown): CallToolResult {
  if (error instanceof CronbeamError) {
    return { isError: true, content: [{ type: 'text', text: `${error.message}\n\n${JSON.stringify({ error: error.toJSON() }, null, 2)}` }] };
  }
  if (error instanceof ToolUsageError) return { isError: true, content: [{ type: 'text', text: error.message }] };
  const message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: 'text', text: `Unexpected error in the Cronbeam MCP server: ${message}` }] };
}

/** Runs a tool body and turns any failure into a tool error. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error);
  }
}
