import { Injectable } from '@nestjs/common';

/** After the last request of a burst started, writes wait this long more: its responses are still arriving. */
const QUIET_MS = 50;
/** This many requests in flight is a burst; a few slow targets are not. */
const BURST_IN_FLIGHT = 32;

/**
 * Whether a burst is being sent. While one is, result writes hold back so
 * the database does not take the CPU the requests need; the dispatcher
 * reports, the recorder asks.
 */
@Injectable()
export class DispatchPressure {
  private waiting = 0;
  private inFlight = 0;
  private lastStart = -Infinity;

  /** Released runs waiting for an execution slot. */
  setWaiting(count: number): void {
    this.waiting = count;
  }

  started(): void {
    this.inFlight++;
    this.lastStart = performance.now();
  }

  finished(): void {
    this.inFlight--;
  }

  get busy(): boolean {
    return this.waiting > 0 || this.inFlight >= BURST_IN_FLIGHT || performance.now() - this.lastStart < QUIET_MS;
  }
}
