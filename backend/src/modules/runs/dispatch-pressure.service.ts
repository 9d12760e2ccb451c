import { Injectable } from '@nestjs/common';

/** After a burst's last request started, writes wait this long more: its responses are still arriving. */
const QUIET_MS = 50;
/** This many requests in flight is a burst; a few slow targets are not. */
const BURST_IN_FLIGHT = 32;

/**
 * Whether a burst is being sent. While one is, result writes hold back so
 * the database does not take the CPU the requests need; the dispatcher
 * reports, the recorder asks. A steady stream of runs (a few started every
 * millisecond, few in flight) is not a burst: counting every recent start
 * as one held each result back for the recorder's longest wait.
 */
@Injectable()
export class DispatchPressure {
  private waiting = 0;
  private inFlight = 0;
  /** When a request last started while released runs waited for a slot or BURST_IN_FLIGHT were in flight. */
  private lastBurstStart = -Infinity;

  /** Released runs waiting for an execution slot. */
  setWaiting(count: number): void {
    this.waiting = count;
  }

  started(): void {
    this.inFlight++;
    if (this.waiting > 0 || this.inFlight >= BURST_IN_FLIGHT) this.lastBurstStart = performance.now();
  }

  finished(): void {
    this.inFlight--;
  }

  get busy(): boolean {
    return this.waiting > 0 || this.inFlight >= BURST_IN_FLIGHT || performance.now() - this.lastBurstStart < QUIET_MS;
  }
}
