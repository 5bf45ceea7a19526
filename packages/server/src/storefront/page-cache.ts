import type { CatalogCache } from '../catalog-cache/cache.ts';

/**
 * Storefront, product and hub pages as rendered HTML, kept per brand in the catalog cache
 * (catalog-cache/cache.ts, docs/catalog.md) so a busy page costs no database read. They are dropped
 * exactly when what they show changes:
 *   - the catalog and the brand profile: every such write already marks the catalog changed;
 *   - a tier's places left and the checkout links behind the buttons: their writes mark it too
 *     (checkout/stock.ts, checkout-links/service.ts);
 *   - time: a page stops being true at the next `timeBound` of a tier it shows or expiry of a
 *     link it points to, so it is kept with that instant and the brand is read afresh after it.
 */

export interface RenderedPage {
  /** The page, or undefined for "no such page" (cached too: publishing is a catalog write). */
  html?: string;
  /** Epoch ms after which the page is no longer true. */
  validUntil?: number;
}

/** The earliest of the future instants given (Dates or nulls), as epoch ms; undefined when none. */
export function nextBoundary(instants: (Date | null | undefined)[], now = Date.now()): number | undefined {
  const future = instants.map((d) => d?.getTime()).filter((t): t is number => t !== undefined && t > now);
  return future.length ? Math.min(...future) : undefined;
}

// Stored as "validUntil\n" + html ("\n" alone: no boundary; a lone "-" line: no such page).
export async function cachedPage(cache: CatalogCache, brandId: string, key: string, render: () => Promise<RenderedPage>): Promise<RenderedPage> {
  const encode = (p: RenderedPage) => `${p.validUntil ?? ''}${p.html === undefined ? '\n-' : `\n${p.html}`}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    const stored = await cache.read(brandId, `page:${key}`, async () => encode(await render()));
    const nl = stored.indexOf('\n');
    const until = nl > 0 ? Number(stored.slice(0, nl)) : Infinity;
    if (Date.now() < until) {
      const body = stored.slice(nl + 1);
      return body === '-' ? {} : { html: body };
    }
    // A sale closed or a link expired since the page was kept: read the brand afresh.
    cache.drop(brandId);
  }
  return render();
}
