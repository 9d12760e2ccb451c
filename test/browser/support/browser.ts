import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, installed by .ci/run. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1366, height: 860 };
export const MOBILE = { width: 375, height: 812 };
export const SCREENSHOT_DIR = resolve(__dirname, '../screenshots');

export interface Browser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Chromium on a profile of its own (deleted on close), clipboard allowed for
 * the copy buttons. `extraArgs` adds switches (a test of several host names
 * routes them to the test server with --proxy-server).
 */
export async function launchBrowser(baseUrl: string, extraArgs: string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'cronbeam-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, ...extraArgs],
    viewport: DESKTOP,
    baseURL: baseUrl,
    timezoneId: 'UTC',
    locale: 'en-US',
    reducedMotion: 'reduce',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  return {
    context,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves the page at desktop width and at 375 px under test/browser/screenshots/ (ignored by git). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const size = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(MOBILE);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-375.png`), fullPage: true });
  await page.setViewportSize(size);
}
