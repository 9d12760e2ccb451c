import { DispatchPressure } from './dispatch-pressure.service';

function startMany(pressure: DispatchPressure, count: number): void {
  for (let i = 0; i < count; i++) pressure.started();
}

async function untilQuiet(pressure: DispatchPressure): Promise<number> {
  const since = performance.now();
  while (pressure.busy) await new Promise((resolve) => setTimeout(resolve, 5));
  return performance.now() - since;
}

describe('DispatchPressure', () => {
  it('is never busy for runs released in small groups (a steady stream), however many are in flight or waiting for their log entry', () => {
    const pressure = new DispatchPressure();
    pressure.setWaiting(40);
    startMany(pressure, 100);
    expect(pressure.busy).toBe(false);
  });

  it('is busy from a burst\'s release while its runs are unanswered, counting those waiting to start and those in flight together', async () => {
    const pressure = new DispatchPressure();
    pressure.burstReleased();
    pressure.setWaiting(20);
    startMany(pressure, 12);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(pressure.busy).toBe(true);
  });

  it('stays busy for a moment after the burst\'s last request started, then the burst is over', async () => {
    const pressure = new DispatchPressure();
    pressure.burstReleased();
    startMany(pressure, 40);
    for (let i = 0; i < 40; i++) pressure.finished();
    expect(pressure.busy).toBe(true);
    expect(await untilQuiet(pressure)).toBeLessThan(1_000);

    // Over: a later small group with as many in flight is not a burst.
    startMany(pressure, 40);
    expect(pressure.busy).toBe(false);
  });
});
