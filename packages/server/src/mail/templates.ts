import { esc } from '../pages/html.ts';
import { contentOf, type BrandLook, type MailContent, type MailKind } from './kinds.ts';

/**
 * One layout for every kind, written in MJML (responsive, tables that mail programs render), and
 * the plain-text part built from the same blocks. Rendering is pure: the same message renders the
 * same way in the worker, the dashboard and the CLI.
 */

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export const defaultColour = '#2b59c3';

function layout(c: MailContent, brand: BrandLook): string {
  const colour = /^#[0-9a-fA-F]{6}$/.test(brand.colour) ? brand.colour : defaultColour;
  const facts = c.facts?.length
    ? `<mj-table font-size="15px" line-height="22px" padding="8px 24px">
${c.facts.map(([k, v]) => `<tr><td style="color:#666;padding:4px 12px 4px 0;vertical-align:top;width:40%">${esc(k)}</td><td style="padding:4px 0;font-weight:600;vertical-align:top;overflow-wrap:anywhere;word-break:break-word">${esc(v)}</td></tr>`).join('\n')}
</mj-table>` : '';
  const button = c.button
    ? `<mj-button href="${esc(c.button.url)}" background-color="${colour}" color="#ffffff" font-size="16px" font-weight="600" border-radius="8px" padding="16px 24px">${esc(c.button.label)}</mj-button>`
    : '';
  return `<mjml lang="en">
<mj-head>
  <mj-title>${esc(c.subject)}</mj-title>
  <mj-preview>${esc(c.preview)}</mj-preview>
  <mj-attributes>
    <mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" />
    <mj-text font-size="16px" line-height="24px" color="#1c1c1e" padding="6px 24px" />
  </mj-attributes>
</mj-head>
<mj-body background-color="#f4f4f6">
  <mj-section background-color="${colour}" padding="18px 0" border-radius="12px 12px 0 0">
    <mj-column>${brand.logoUrl && /^https?:\/\//.test(brand.logoUrl)
    ? `<mj-image src="${esc(brand.logoUrl)}" alt="" width="48px" height="48px" align="left" padding="0 24px 8px" border-radius="8px" />` : ''}<mj-text color="#ffffff" font-size="20px" font-weight="700">${esc(brand.name)}</mj-text></mj-column>
  </mj-section>
  <mj-section background-color="#ffffff" padding="16px 0 24px" border-radius="0 0 12px 12px">
    <mj-column>
      <mj-text font-size="22px" line-height="30px" font-weight="700" padding="8px 24px">${esc(c.heading)}</mj-text>
      ${c.paragraphs.map((p) => `<mj-text>${esc(p)}</mj-text>`).join('\n      ')}
      ${facts}
      ${button}
    </mj-column>
  </mj-section>
  <mj-section padding="8px 0">
    <mj-column><mj-text font-size="13px" line-height="18px" color="#666666" align="center">${esc(c.footer ?? '')}${
  c.unsubscribeUrl ? ` <a href="${esc(c.unsubscribeUrl)}" style="color:#666666;text-decoration:underline">Unsubscribe</a>` : ''}</mj-text></mj-column>
  </mj-section>
</mj-body>
</mjml>`;
}

function textOf(c: MailContent, brand: BrandLook): string {
  const width = Math.max(0, ...(c.facts ?? []).map(([k]) => k.length));
  return [
    brand.name,
    '',
    c.heading,
    '',
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.facts?.length ? [...c.facts.map(([k, v]) => `${`${k}:`.padEnd(width + 2)}${v}`), ''] : []),
    ...(c.button ? [`${c.button.label}: ${c.button.url}`, ''] : []),
    ...(c.footer ? ['--', c.footer] : []),
    ...(c.unsubscribeUrl ? [`Unsubscribe: ${c.unsubscribeUrl}`] : []),
  ].join('\n').trimEnd() + '\n';
}

// MJML is large: loaded when the first message is rendered, not at start (docs/embedded.md).
type Mjml = typeof import('mjml');
let mjml: Promise<Mjml> | undefined;

export async function renderMail(kind: MailKind, data: unknown, brand: BrandLook): Promise<RenderedMail> {
  const content = contentOf(kind, data, brand);
  // A CommonJS module: its function is the namespace's default export.
  mjml ??= import('mjml').then((m) => (m as unknown as { default: Mjml }).default);
  const result = await (await mjml)(layout(content, brand), { validationLevel: 'strict', minify: false });
  return { subject: content.subject, html: result.html, text: textOf(content, brand) };
}
