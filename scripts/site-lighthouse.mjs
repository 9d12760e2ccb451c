// Lighthouse scores of the given URLs, measured in Debian's Chromium with
// Lighthouse's mobile defaults (simulated slow 4G and 4x CPU slowdown).
// Usage: node scripts/site-lighthouse.mjs URL... ; prints one JSON object
// { url: { performance, accessibility, 'best-practices', seo } } (scores 0-100),
// each the median of LIGHTHOUSE_RUNS runs (default 1; Lighthouse's own advice
// against a single noisy run on a busy machine).
// Extra Chromium switches (e.g. --proxy-server=...) come from LIGHTHOUSE_CHROME_FLAGS.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1) || 1);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const urls = process.argv.slice(2);
if (urls.length === 0) {
  console.error('usage: node scripts/site-lighthouse.mjs URL...');
  process.exit(2);
}

const extraFlags = (process.env.LIGHTHOUSE_CHROME_FLAGS ?? '').split(' ').filter(Boolean);
const chrome = await launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', ...extraFlags],
});
const scores = {};
const failures = {};
try {
  for (const url of urls) {
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) {
      // A run that Lighthouse itself could not finish (a busy machine) is tried once more.
      let result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
      if (result.lhr.runtimeError || CATEGORIES.some((c) => result.lhr.categories[c].score === null)) {
        result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
      }
      if (result.lhr.runtimeError) failures[`${url} (runtime error)`] = [result.lhr.runtimeError.message];
      runs.push(result.lhr);
    }
    const { audits } = runs[runs.length - 1];
    scores[url] = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((lhr) => Math.round((lhr.categories[c].score ?? 0) * 100)))]));
    // What cost points, so a failing run says why.
    failures[url] = Object.values(audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => `${a.id}: ${a.displayValue ?? a.score}`);
  }
} finally {
  await chrome.kill();
}
process.stdout.write(`${JSON.stringify({ scores, failures }, null, 2)}\n`);
