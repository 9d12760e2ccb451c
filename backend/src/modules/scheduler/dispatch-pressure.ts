import { Injectable } from '@nestjs/common';

/** After the last request of a burst started, writes wait this long more: its responses are still arriving. */
const QUIET_MS = 50;

/**
 * Whether a burst is being sent. While one is, result writes hold back so
 * the database does not take the CPU the requests need; the dispatcher
 * reports, the recorder asks.
 */
@Injectable()
export class DispatchPressure {
  private waiting = 0;
  private lastStart = -Infinity;

  /** Released runs waiting for an execution slot. */
  setWaiting(count: number): void {
    this.waiting = count;
  }

  started(): void {
    this.lastStart = performance.now();
  }

  get busy(): boolean {
    return this.waiting > 0 || performance.now() - this.lastStart < QUIET_MS;
  }
}
