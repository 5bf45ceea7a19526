/**
 * First contentful paint of the dashboard on Chromium's slow-4G emulation (issue 26), reported,
 * never asserted: a timing depends on the machine, so it is measured here rather than in a test.
 * Starts the real server on PGlite with the built dashboard, then with an empty cache each time
 * opens the sign-in page (a visitor's first load) and a signed-in owner's home, throttled as
 * Lighthouse's slow 4G (DevTools throttling: 562.5 ms latency, 1,474.56 kbit/s down, 675 kbit/s up)
 * with 4x CPU slowdown, and prints FCP and when the page's heading shows. The median of 3 runs.
 * Before this load average (`uptime`) matters: on the shared machine, note it beside the numbers.
 *
 *   node scripts/dashboard-fcp.ts
 */
import { startTestApp } from '../packages/server/src/testing/app.ts';
import { launchChromium } from '../packages/server/src/testing/browser.ts';
import { signUp } from '../packages/server/src/testing/dashboard.ts';
import { freePort } from '../packages/server/src/testing/processes.ts';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = await startTestApp({ publicUrl: base });
await t.app.listen({ port, host: '127.0.0.1' });
const browser = await launchChromium();
const owner = await signUp(t);

async function measure(path: string, heading: string, signedIn: boolean) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  if (signedIn) {
    await context.addCookies([{ name: 'cc_session', value: owner.client.cookie!, url: base }]);
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const started = Date.now();
  await page.goto(`${base}/dashboard${path}`);
  await page.getByRole('heading', { name: heading }).first().waitFor({ timeout: 60_000 });
  const headingMs = Date.now() - started;
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
  const js = await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js'))
    .reduce((a, r) => a + (r as PerformanceResourceTiming).transferSize, 0));
  // index.html preloads the session: one request means the app used the preloaded answer.
  const sessionRequests = await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => new URL(r.name).pathname === '/dashboard/api/session').length);
  await context.close();
  return { fcp, headingMs, js, sessionRequests };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [label, path, heading, signedIn] of [['sign-in (signed out)', '/signin', 'Sign in', false], ['home (signed in)', '/', 'Home', true]] as const) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await measure(path, heading, signedIn));
  console.log(`${label}: first contentful paint ${Math.round(median(runs.map((r) => r.fcp)))} ms, heading shown ${median(runs.map((r) => r.headingMs))} ms, `
    + `${(median(runs.map((r) => r.js)) / 1024).toFixed(1)} KB of JavaScript transferred, ${Math.max(...runs.map((r) => r.sessionRequests))} session request(s) (slow 4G, 4x CPU, empty cache; median of 3)`);
}
await browser.close();
await t.close();
