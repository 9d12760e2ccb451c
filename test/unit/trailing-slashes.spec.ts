import { withoutTrailingSlashes } from '../../shared/src/text/trailing-slashes';

describe('withoutTrailingSlashes', () => {
  it.each([
    ['https://cron.example.com/', 'https://cron.example.com'],
    ['https://cron.example.com///', 'https://cron.example.com'],
    ['/jobs//', '/jobs'],
    ['/a//b', '/a//b'],
    ['///', ''],
    ['', ''],
  ])('%j -> %j', (value, expected) => {
    expect(withoutTrailingSlashes(value)).toBe(expected);
  });

  it('keeps inner runs of slashes, however long', () => {
    const path = `/${'/'.repeat(100_000)}x`;
    expect(withoutTrailingSlashes(path)).toBe(path);
  });
});
