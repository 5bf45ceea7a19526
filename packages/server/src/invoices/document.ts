import type { PDFFont, RGB } from 'pdf-lib';
import { esc } from '../pages/html.ts';
import { toMajor } from '../money.ts';

/**
 * An invoice as a document: the same facts printed as an HTML page and as a PDF (pdf-lib, the
 * standard Helvetica fonts, so nothing is embedded and the file stays a few kB).
 */
export interface InvoiceFacts {
  number: string;
  issuedAt: Date;
  /** The seller: the brand's name, its profile's postal address (lines) and tax number, and the reply-to address of its mail. */
  brand: { name: string; replyTo: string | null; address: string[]; taxNumber: string | null };
  buyer: { name: string; email: string };
  txref: string;
  lines: { description: string; amount: number }[];
  total: number;
  currency: string;
  status: string;
  test: boolean;
}

const money = (minor: number, currency: string) => {
  const major = toMajor(minor, currency);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(major);
  } catch {
    return `${major} ${currency}`;
  }
};
const day = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function invoiceHtml(f: InvoiceFacts): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${esc(f.number)} — ${esc(f.brand.name)}</title>
<style>
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1c1e;background:#f4f4f6}
main{max-width:44rem;margin:1rem auto;background:#fff;padding:2rem;border-radius:12px;box-shadow:0 1px 3px #0002}
h1{font-size:1.5rem;margin:0 0 .25rem}.muted{color:#666}.parties{display:flex;flex-wrap:wrap;gap:2rem;margin:1.5rem 0}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.5rem 0;border-bottom:1px solid #eee}
td.amount,th.amount{text-align:right}tfoot td{font-weight:700;border-bottom:0}.test{background:#fff4d6;color:#6b4e00;padding:.5rem;border-radius:8px}
@media print{body{background:#fff}main{box-shadow:none;margin:0}}
</style></head>
<body><main>
${f.test ? '<p class="test">Test mode: not a real invoice.</p>' : ''}
<h1>Invoice ${esc(f.number)}</h1>
<p class="muted">Issued ${esc(day(f.issuedAt))} · Reference ${esc(f.txref)} · ${esc(f.status === 'succeeded' ? 'Paid' : f.status)}</p>
<div class="parties">
  <div><strong>From</strong><br>${[f.brand.name, ...f.brand.address, ...(f.brand.taxNumber ? [`Tax ID ${f.brand.taxNumber}`] : []), ...(f.brand.replyTo ? [f.brand.replyTo] : [])].map(esc).join('<br>')}</div>
  <div><strong>Billed to</strong><br>${esc(f.buyer.name)}<br>${esc(f.buyer.email)}</div>
</div>
<table>
<thead><tr><th>Description</th><th class="amount">Amount</th></tr></thead>
<tbody>${f.lines.map((l) => `<tr><td>${esc(l.description)}</td><td class="amount">${esc(money(l.amount, f.currency))}</td></tr>`).join('')}</tbody>
<tfoot><tr><td>Total paid</td><td class="amount">${esc(money(f.total, f.currency))}</td></tr></tfoot>
</table>
</main></body></html>`;
}

/** Helvetica draws WinAnsi only: characters outside it (emoji, most non-Latin scripts) print as "?". */
function printable(font: PDFFont, text: string): string {
  return [...text].map((c) => { try { font.encodeText(c); return c; } catch { return '?'; } }).join('');
}

export async function invoicePdf(f: InvoiceFacts): Promise<Uint8Array> {
  // Loaded when the first invoice is asked for, not at start (docs/embedded.md).
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Invoice ${f.number}`);
  pdf.setAuthor(f.brand.name);
  pdf.setCreationDate(f.issuedAt);
  pdf.setModificationDate(f.issuedAt);
  const page = pdf.addPage([595.28, 841.89]); // A4
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const grey = rgb(0.4, 0.4, 0.4);
  let y = 780;
  const text = (s: string, x: number, opts: { font?: PDFFont; size?: number; color?: RGB; right?: boolean } = {}) => {
    const font = opts.font ?? regular;
    const size = opts.size ?? 11;
    const safe = printable(font, s);
    const at = opts.right ? x - font.widthOfTextAtSize(safe, size) : x;
    page.drawText(safe, { x: at, y, size, font, color: opts.color ?? rgb(0.1, 0.1, 0.12) });
  };
  if (f.test) { text('TEST MODE - not a real invoice', 50, { font: bold, color: rgb(0.6, 0.4, 0) }); y -= 24; }
  text(`Invoice ${f.number}`, 50, { font: bold, size: 22 }); y -= 20;
  text(`Issued ${day(f.issuedAt)}   Reference ${f.txref}   ${f.status === 'succeeded' ? 'Paid' : f.status}`, 50, { color: grey }); y -= 40;
  text('From', 50, { font: bold }); text('Billed to', 300, { font: bold }); y -= 16;
  // The seller's lines down the left, the buyer's down the right, from the same line.
  const from = [f.brand.name, ...f.brand.address, ...(f.brand.taxNumber ? [`Tax ID ${f.brand.taxNumber}`] : []), ...(f.brand.replyTo ? [f.brand.replyTo] : [])];
  const to = [f.buyer.name, f.buyer.email];
  for (let i = 0; i < Math.max(from.length, to.length); i++) {
    if (from[i]) text(from[i], 50);
    if (to[i]) text(to[i], 300);
    y -= 16;
  }
  y -= 24;
  text('Description', 50, { font: bold }); text('Amount', 545, { font: bold, right: true }); y -= 8;
  page.drawLine({ start: { x: 50, y }, end: { x: 545, y }, thickness: 0.5, color: grey }); y -= 18;
  for (const l of f.lines) {
    text(l.description.length > 70 ? `${l.description.slice(0, 69)}…` : l.description, 50);
    text(money(l.amount, f.currency), 545, { right: true });
    y -= 20;
  }
  page.drawLine({ start: { x: 50, y: y + 8 }, end: { x: 545, y: y + 8 }, thickness: 0.5, color: grey }); y -= 12;
  text('Total paid', 50, { font: bold }); text(money(f.total, f.currency), 545, { font: bold, right: true });
  return pdf.save();
}
