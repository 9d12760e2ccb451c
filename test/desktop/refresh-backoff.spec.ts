import { reconnectDelay } from '../../desktop/main/events/event-feed';
import { REFRESH_BACKOFF_CEILING_MS, refreshRetryDelay } from '../../desktop/main/session/refresh-backoff';

describe('backoff schedules', () => {
  it('identity refresh: 100 ms doubling, plus up to as much again of jitter, never above 5 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => refreshRetryDelay(n, () => 0))).toEqual([100, 200, 400, 800, 1600, 3200]);
    expect(refreshRetryDelay(1, () => 0.5)).toBe(150);
    expect(refreshRetryDelay(3, () => 0.999)).toBe(800);
    expect(refreshRetryDelay(6, () => 0.999)).toBe(REFRESH_BACKOFF_CEILING_MS);
    expect(refreshRetryDelay(40, () => 0)).toBe(REFRESH_BACKOFF_CEILING_MS);
    for (let n = 1; n < 12; n++) expect(refreshRetryDelay(n)).toBeLessThanOrEqual(REFRESH_BACKOFF_CEILING_MS);
  });

  it('event stream reconnects: 1 s doubling plus jitter, at most 30 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => reconnectDelay(n, () => 0))).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
    expect(reconnectDelay(1, () => 1)).toBe(1500);
  });
});
