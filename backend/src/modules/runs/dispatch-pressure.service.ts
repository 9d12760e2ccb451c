import { Injectable } from '@nestjs/common';

/** After a burst's last request started, writes wait this long more: its responses are still arriving. */
const QUIET_MS = 50;
/** A burst is being sent while this many runs are released and not answered (waiting to start or in flight). */
const BURST_RUNS = 32;

/**
 * Whether a burst is being sent. While one is, result writes hold back so
 * the database does not take the CPU the requests need; the dispatcher
 * reports, the recorder asks. Only a group released at one instant large
 * enough to be a burst starts one (the dispatcher says which): a steady
 * stream of runs at distinct milliseconds is never one, however loaded the
 * machine. On a busy machine such a stream has dozens of requests in flight
 * and a few runs waiting for their dispatch-log entry, and judging by those
 * counts alone held each of its results back for the recorder's longest wait.
 */
@Injectable()
export class DispatchPressure {
  private waiting = 0;
  private inFlight = 0;
  private inBurst = false;
  /** When a request last started during a burst while BURST_RUNS or more were released and not answered. */
  private lastBurstStart = -Infinity;

  /** A group large enough to be a burst was released: it lasts until its requests are nearly all answered. */
  burstReleased(): void {
    this.inBurst = true;
    this.lastBurstStart = performance.now();
  }

  /** Released runs not started yet (waiting for a slot or for their dispatch-log entry). */
  setWaiting(count: number): void {
    this.waiting = count;
  }

  started(): void {
    this.inFlight++;
    if (this.inBurst && this.unanswered() >= BURST_RUNS) this.lastBurstStart = performance.now();
  }

  finished(): void {
    this.inFlight--;
  }

  get busy(): boolean {
    if (!this.inBurst) return false;
    if (this.unanswered() >= BURST_RUNS || performance.now() - this.lastBurstStart < QUIET_MS) return true;
    this.inBurst = false;
    return false;
  }

  private unanswered(): number {
    return this.waiting + this.inFlight;
  }
}
