import type { Readable } from 'node:stream';

/** The most of a response body the execution log keeps. */
export const RESPONSE_CAPTURE_BYTES = 64 * 1024;

const TEXTUAL = /^(text\/|application\/([\w.+-]+\+)?(json|xml|javascript|x-www-form-urlencoded)|application\/problem)/i;

/**
 * Reads at most 64 KiB of a response body as text and discards the rest.
 * Text and JSON are stored as they came (JSON stays valid JSON unless it was
 * cut); other content types are summarised rather than stored as mojibake.
 */
export async function captureBody(body: Readable, contentType: string | undefined): Promise<string | null> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (kept < RESPONSE_CAPTURE_BYTES) {
      const part = chunk.subarray(0, RESPONSE_CAPTURE_BYTES - kept);
      chunks.push(part);
      kept += part.length;
    }
    if (total > RESPONSE_CAPTURE_BYTES) {
      body.destroy(); // do not download megabytes nobody will read
      break;
    }
  }
  if (total === 0) return null;
  if (contentType && !TEXTUAL.test(contentType)) return `[${contentType} body not stored]`;
  const text = Buffer.concat(chunks).toString('utf8');
  // A cut may split a multi-byte character: drop the replacement character it leaves.
  return total > RESPONSE_CAPTURE_BYTES ? text.replace(/\uFFFD$/, '') : text;
}
