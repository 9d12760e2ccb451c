import { Injectable } from '@nestjs/common';

/** Pings per token (or per address, for unknown tokens) per window: far above any real schedule, low enough to make flooding cheap to refuse. */
export const PINGS_PER_WINDOW = 30;
export const PING_WINDOW_SECONDS = 60;
const MAX_TOKENS = 100_000;

/** Tokens that pinged successfully lately, on this instance: an address slowed down for guessing still reaches these. */
@Injectable()
export class KnownPingTokens {
  private readonly known = new Set<string>();

  remember(token: string): void {
    if (this.known.has(token)) return;
    if (this.known.size >= MAX_TOKENS) this.known.clear();
    this.known.add(token);
  }

  has(token: string): boolean {
    return this.known.has(token);
  }
}
