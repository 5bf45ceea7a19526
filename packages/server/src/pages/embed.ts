import { createHash } from 'node:crypto';
import { esc } from './html.ts';

/**
 * The checkout shown inside the embeddable overlay (/embed.js, docs/checkout.md "Embedding the
 * checkout"). The overlay opens the checkout link with `?embed={the site's origin}`; the pages of
 * the flow carry it from address to address (form, payment page, result). What is decided here:
 *   - which sites may frame the pages: the brand's allow-list, sent as CSP `frame-ancestors`
 *     (everything else, and every page of a brand with an empty list, is `frame-ancestors 'none'`);
 *   - the one script our pages ever run: on the result page, it tells the framing site the
 *     payment went through (`checkout.completed`), addressed to that site's origin only.
 */

/** What the framing site receives as `event.data` (packages/sdk's CheckoutEmbedEvent has the types). */
export const embedEventSource = 'creator-commerce-checkout';

/** The `embed` query value when it names a site the brand allows, else undefined (the page is then shown as usual). */
export function embedTarget(value: unknown, allowed: readonly string[]): string | undefined {
  return typeof value === 'string' && allowed.includes(value) ? value : undefined;
}

/** `?embed=…` (or `&embed=…`) to carry the overlay's origin to the next page of the flow. */
export function withEmbed(path: string, target: string | undefined): string {
  if (!target) return path;
  return `${path}${path.includes('?') ? '&' : '?'}embed=${encodeURIComponent(target)}`;
}

// Constant, so the CSP can allow exactly it by its hash; what it posts is in the element's data attributes.
const completedScriptText = 'var s=document.currentScript;parent.postMessage(JSON.parse(s.dataset.message),s.dataset.target);';
export const completedScriptHash = `'sha256-${createHash('sha256').update(completedScriptText).digest('base64')}'`;

/** The result page's script telling the framing site the payment succeeded. */
export function completedScript(target: string, message: { txref: string; amount: number; currency: string; redirectUrl?: string }): string {
  const data = JSON.stringify({ source: embedEventSource, type: 'checkout.completed', ...message });
  return `<script data-target="${esc(target)}" data-message="${esc(data)}">${completedScriptText}</script>`;
}
