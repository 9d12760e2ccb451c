import { DispatchPressure } from './dispatch-pressure.service';

function startMany(pressure: DispatchPressure, count: number): void {
  for (let i = 0; i < count; i++) pressure.started();
}

/** The burst's tail (50 ms after its last start) passes on the fake clock, not in real time. */
describe('DispatchPressure', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is never busy for runs released in small groups (a steady stream), however many are in flight or waiting for their log entry', () => {
    const pressure = new DispatchPressure();
    pressure.setWaiting(40);
    startMany(pressure, 100);
    expect(pressure.busy).toBe(false);
  });

  it('is busy from a burst\'s release while its runs are unanswered, counting those waiting to start and those in flight together', () => {
    const pressure = new DispatchPressure();
    pressure.burstReleased();
    pressure.setWaiting(20);
    startMany(pressure, 12);
    jest.advanceTimersByTime(80); // past the tail: what keeps it busy is the 32 unanswered runs
    expect(pressure.busy).toBe(true);
  });

  it('stays busy for a moment after the burst\'s last request started, then the burst is over', () => {
    const pressure = new DispatchPressure();
    pressure.burstReleased();
    startMany(pressure, 40);
    for (let i = 0; i < 40; i++) pressure.finished();
    expect(pressure.busy).toBe(true);
    jest.advanceTimersByTime(40);
    expect(pressure.busy).toBe(true);
    jest.advanceTimersByTime(20);
    expect(pressure.busy).toBe(false);

    // Over: a later small group with as many in flight is not a burst.
    startMany(pressure, 40);
    expect(pressure.busy).toBe(false);
  });
});
