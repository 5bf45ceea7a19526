/**
 * `node scripts/email-screenshots.ts`: renders every kind of mail from its sample
 * (packages/server/src/mail/samples.ts) and saves a screenshot of its HTML part, as a mail
 * program shows it, to docs/screenshots/email-<kind>.png (docs/email.md shows them).
 */
import { mailKindNames, mailKinds } from '../packages/server/src/mail/kinds.ts';
import { mailSamples } from '../packages/server/src/mail/samples.ts';
import { renderMail } from '../packages/server/src/mail/templates.ts';
import { launchChromium } from '../packages/server/src/testing/browser.ts';

const out = new URL('../docs/screenshots/', import.meta.url).pathname;
const browser = await launchChromium();
try {
  for (const width of [1366, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 400 } });
    for (const kind of mailKindNames) {
      const brand = mailKinds[kind].audience === 'account' ? { name: 'Dashboard', colour: '#2b59c3' } : { name: 'Brush & Co', colour: '#b4412f' };
      const mail = await renderMail(kind, mailSamples[kind], { ...brand, publicUrl: 'http://localhost:3000' });
      await page.setContent(mail.html);
      const file = `${out}email-${kind.replace(/_/g, '-')}${width === 390 ? '-390' : ''}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
