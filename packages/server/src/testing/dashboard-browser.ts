import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { defaultDashboardDir } from '../dashboard/static.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { browserSkip, launchChromium } from './browser.ts';
import { freePort } from './processes.ts';

/**
 * What every dashboard page test needs: Chromium and the dashboard's build (both skip with what to
 * install outside CI), an app listening on a free port so the browser can reach it, sign-in, and
 * a look at each page at laptop and phone width. SCREENSHOT_DIR=… keeps the screenshots.
 */
const built = existsSync(join(defaultDashboardDir, 'index.html'));

export const dashboardSkip: string | false = browserSkip
  || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard (npm ci does it)' : false);

export const shotDir = process.env.SCREENSHOT_DIR;

export interface BrowserApp {
  t: TestApp;
  browser: Browser;
  /** The app's origin, e.g. http://127.0.0.1:41234. */
  base: string;
  close(): Promise<void>;
}

export async function startBrowserApp(options: TestAppOptions = {}): Promise<BrowserApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ publicUrl: base, ...options });
  await t.app.listen({ port, host: '127.0.0.1' });
  const browser = await launchChromium();
  if (shotDir) await mkdir(shotDir, { recursive: true });
  return { t, browser, base, close: async () => { await browser.close(); await t.close(); } };
}

/** The factories' owners sign in with this password unless a test says otherwise. */
export const testPassword = 'correct horse battery';

export async function signInToDashboard(page: Page, base: string, email: string, password = testPassword): Promise<void> {
  await page.goto(`${base}/dashboard/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));
}

export interface FitOptions {
  /** Also require every link, button and field of the main content to sit inside the viewport. */
  actionsInView?: boolean;
  /** Scroll to the end first (a form's sticky save bar then sits at the end of a full-page shot, not over the fields). */
  scrollToEnd?: boolean;
}

/** At 1366 and 390 px: no sideways scrolling (and, if asked, no action off-screen); a screenshot of each when SCREENSHOT_DIR is set. */
export async function fitsAndShoot(page: Page, name: string, { actionsInView = false, scrollToEnd = false }: FitOptions = {}): Promise<void> {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (scrollToEnd) await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${name} at ${width}px scrolls sideways by ${overflow}px`);
    if (actionsInView) {
      const outside = await page.evaluate(() => [...document.querySelectorAll('main a, main button, main select, main input')].flatMap((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.left < 0 || r.right > window.innerWidth + 0.5) ? [`${el.textContent || el.id} (${Math.round(r.left)}–${Math.round(r.right)})`] : [];
      }));
      assert.deepEqual(outside, [], `${name} at ${width}px: actions off-screen`);
    }
    if (shotDir) await page.screenshot({ path: join(shotDir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** axe's moderate, serious and critical findings on the page as it is, one line each. */
export async function axeFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'moderate' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}
