import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Page tests drive Debian's `chromium` (CHROMIUM_PATH points at another binary). Without it they
 * skip with this message, except in CI (CI=true), where a missing browser must fail the run.
 */
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const browserSkip = !existsSync(executablePath) && process.env.CI !== 'true'
  ? `install chromium: apt-get install -y chromium (${executablePath} is missing)`
  : false;

/** Headless, sandbox and GPU off, nothing in the background (the machine's network is closed). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic'] });
}
