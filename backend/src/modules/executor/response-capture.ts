/** The most of a response body the execution log keeps. */
export const RESPONSE_CAPTURE_BYTES = 64 * 1024;

const TEXTUAL = /^(text\/|application\/([\w.+-]+\+)?(json|xml|javascript|x-www-form-urlencoded)|application\/problem)/i;

/**
 * Keeps at most 64 KiB of a response body as its chunks arrive. Text and
 * JSON are stored as they came (JSON stays valid JSON unless it was cut);
 * other content types are summarised rather than stored as mojibake.
 */
export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  /** Adds a chunk; answers false once more than the cap has arrived, as the rest is not worth downloading. */
  add(chunk: Buffer): boolean {
    this.total += chunk.length;
    if (this.kept < RESPONSE_CAPTURE_BYTES) {
      const part = chunk.length <= RESPONSE_CAPTURE_BYTES - this.kept ? chunk : chunk.subarray(0, RESPONSE_CAPTURE_BYTES - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
    }
    return this.total <= RESPONSE_CAPTURE_BYTES;
  }

  /** The body as the log stores it: null when empty. */
  text(contentType: string | undefined): string | null {
    if (this.total === 0) return null;
    if (contentType && !TEXTUAL.test(contentType)) return `[${contentType} body not stored]`;
    const text = (this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks)).toString('utf8');
    // A cut may split a multi-byte character: drop the replacement character it leaves.
    return this.total > RESPONSE_CAPTURE_BYTES ? text.replace(/\uFFFD$/, '') : text;
  }
}
