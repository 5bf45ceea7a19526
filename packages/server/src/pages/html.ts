import type { FastifyReply } from 'fastify';

/**
 * The shared server-rendered HTML layer (checkout now; consent and error pages later): escaping,
 * the page layout with one small inline stylesheet, the security headers with a strict CSP, and
 * a plain message page for errors. No scripts: forms post without JavaScript, and the layout is a
 * single column that reads on a phone.
 */

const escapes = new Map([['&', '&amp;'], ['<', '&lt;'], ['>', '&gt;'], ['"', '&quot;'], ["'", '&#39;']]);

/** Escapes text for an HTML element or a quoted attribute. */
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => escapes.get(c)!);

const style = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1c1e;background:#f4f4f6}
main{max-width:32rem;margin:0 auto;padding:1rem}.card{background:#fff;border-radius:12px;padding:1.25rem;margin:1rem 0;box-shadow:0 1px 3px #0002}
.brand{font-weight:600;color:#555;margin:.5rem 0 0}h1{font-size:1.4rem;margin:.25rem 0}h2{font-size:1.1rem;margin:0 0 .5rem}
.tier{color:#555;margin:0}table{width:100%;border-collapse:collapse}td,th{padding:.4rem 0;vertical-align:top;text-align:left}
td.amount,th.amount{text-align:right;white-space:nowrap;padding-left:1rem}tfoot th{border-top:1px solid #ddd;font-size:1.1rem}
.detail{display:block;color:#666;font-size:.9rem}label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input{width:100%;font-size:1.1rem;padding:.7rem;border:1px solid #bbb;border-radius:8px}
button{width:100%;margin-top:1rem;font-size:1.1rem;font-weight:600;padding:.8rem;border:0;border-radius:8px;background:#2b59c3;color:#fff}
button.secondary{background:transparent;color:#2b59c3;border:1px solid currentColor;font-size:1rem}
.hint{color:#555;font-size:.9rem;margin:.4rem 0 0}.notice{padding:.75rem 1rem;border-radius:8px;margin:1rem 0}
.error{background:#fdecea;color:#8a1c13}.success{background:#e7f6ec;color:#14532d}.test{background:#fff4d6;color:#6b4e00;text-align:center}
a{color:#2b59c3}`;

/** What a public page adds to the layout (storefront/templates.ts): search-engine and share tags, the brand's colour, a wider column. */
export interface PageOptions {
  /** Trusted HTML for <head>: canonical link, Open Graph and Twitter card tags. */
  head?: string;
  /** Leaves out `noindex`: storefront pages are meant to be found. */
  indexable?: boolean;
  /** A #rrggbb colour (checked dark enough for white text) for buttons and links. */
  accent?: string;
  /** Extra trusted CSS. */
  css?: string;
}

/** A whole page. `banner` is trusted HTML shown above the body (e.g. the test-mode notice). */
export function layout(title: string, body: string, banner = '', options: PageOptions = {}): string {
  const accent = options.accent && /^#[0-9a-f]{6}$/i.test(options.accent)
    ? `button,.button{background:${options.accent}}a{color:${options.accent}}` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.indexable ? '' : '<meta name="robots" content="noindex">\n'}<title>${esc(title)}</title>
${options.head ?? ''}<style>${style}${options.css ?? ''}${accent}</style>
</head>
<body>
<main>
${banner}
${body}
</main>
</body>
</html>`;
}

/** A page that only says something: errors, a link that does not exist. */
export function messagePage(title: string, message: string): string {
  return layout(title, `<section class="card"><h1>${esc(title)}</h1><p>${esc(message)}</p></section>`);
}

/**
 * Sends a page with the headers every page of ours carries: never cached, never framed, no
 * referrer to other sites, and a CSP that allows no scripts. `formAction` lists the origins its forms may post
 * to besides our own.
 */
export function sendPage(reply: FastifyReply, status: number, html: string, options: {
  formAction?: string[];
  cacheControl?: string;
  /** Sites that may frame the page (the checkout pages of a brand that allows the overlay, pages/embed.ts); none when absent or empty. */
  frameAncestors?: readonly string[];
  /** CSP hash sources of the inline scripts the page carries (pages/embed.ts); no script runs otherwise. */
  scriptHashes?: readonly string[];
} = {}) {
  const formAction = ["'self'", ...(options.formAction ?? [])].join(' ');
  const framed = options.frameAncestors?.length ? options.frameAncestors.join(' ') : undefined;
  const scripts = options.scriptHashes?.length ? `; script-src ${options.scriptHashes.join(' ')}` : '';
  reply.code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', options.cacheControl ?? 'no-store')
    // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on our own form
    // posts, and the checkout form checks Origin (CSRF). Other sites still get no referrer.
    .header('referrer-policy', 'same-origin')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; form-action ${formAction}; frame-ancestors ${framed ?? "'none'"}; base-uri 'none'${scripts}`);
  // X-Frame-Options has no allow-list; browsers that know frame-ancestors ignore it, older ones would refuse every site.
  if (!framed) reply.header('x-frame-options', 'DENY');
  return reply.send(html);
}
