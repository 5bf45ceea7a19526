import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { messagePage, sendPage } from '../pages/html.ts';
import { findProfileBySlugOrId, type BrandProfileRow } from '../brands/repository.ts';
import { storefrontPath } from '../brands/profile.ts';
import { findHub } from '../hubs/repository.ts';
import { productItems, type TierRow } from '../products/repository.ts';
import { linkForTier } from '../checkout-links/repository.ts';
import { checkoutLinkPath } from '../checkout-links/service.ts';
import { slotsLeft } from '../checkout/stock.ts';
import type { Mode } from '../auth/principal.ts';
import type { CatalogCache } from '../catalog-cache/cache.ts';
import * as repo from './repository.ts';
import { cachedPage, nextBoundary } from './page-cache.ts';
import { hubPage, productPage, storefrontPage, type BrandView, type TierOffer } from './templates.ts';

/**
 * The public storefront (docs/storefront.md), no key needed:
 *   GET /s/{brand}                 the brand's published public products and its hubs
 *   GET /s/{brand}/p/{productId}   a product page (published, public or unlisted; else 404)
 *   GET /s/{brand}/h/{hubId}       a hub page with its plans
 * {brand} is the brand's slug, or its id until it has one; an id of a brand that has a slug is
 * answered 301 to the slug's address, so each page has one canonical URL.
 */

const Slug = Type.String({ minLength: 1, maxLength: 100 });
const Id = Type.String({ minLength: 1, maxLength: 100 });

// Pages change with the catalog and with stock; a short shared cache keeps a busy page cheap.
const cacheControl = 'public, max-age=30';

export function storefrontPages(parent: App, { db, config, catalogCache }: { db: Db; config: { publicUrl: string }; catalogCache: CatalogCache }) {
  const notFoundPage = (reply: FastifyReply) =>
    sendPage(reply, 404, messagePage('Page not found', 'There is nothing here. The link may be mistyped, or the item is no longer on sale.'));

  // Which brand a slug names, learned once: the profile itself comes from the cache (dropped on
  // every profile change), and a slug that no longer matches its brand is looked up again.
  const brandBySlug = new Map<string, string>();
  const profileOf = async (slug: string): Promise<BrandProfileRow | undefined> => {
    const known = brandBySlug.get(slug);
    if (known) {
      const cached = JSON.parse(await catalogCache.read(known, 'page:profile', async () => JSON.stringify(await findBrandWithSlug(known) ?? null))) as BrandProfileRow | null;
      if (cached && (cached.slug === slug || (!cached.slug && cached.id === slug))) return cached;
      brandBySlug.delete(slug);
    }
    const found = await findProfileBySlugOrId(db, slug) ?? await findBrandWithSlug(slug);
    if (found && brandBySlug.size < 10_000) brandBySlug.set(slug, found.id);
    return found;
  };

  /** The brand an address names, or undefined after answering (404, or 301 to the slug's address). */
  const brandOf = async (slug: string, rest: string, reply: FastifyReply): Promise<BrandView | undefined> => {
    const brand = await profileOf(slug);
    if (!brand) {
      notFoundPage(reply);
      return undefined;
    }
    if (brand.slug && brand.slug !== slug) {
      reply.code(301).header('cache-control', cacheControl).redirect(`${storefrontPath(brand)}${rest}`, 301);
      return undefined;
    }
    return { brand, home: `${config.publicUrl}${storefrontPath(brand)}` };
  };
  // A brand with a slug asked for by its id: found, so it can be redirected.
  const findBrandWithSlug = async (id: string) => {
    if (!id.startsWith('brand_')) return undefined;
    const [row] = await db.query<BrandProfileRow>(
      'SELECT id, name, plan, slug, display_name, logo_url, accent_color, support_email, time_zone, default_currency, embed_origins FROM brands WHERE id = $1', [id]);
    return row;
  };

  /** Each tier with its places left and its button's checkout link (live before test), and when the offers stop being true. */
  const offersFor = async (brandId: string, tiers: TierRow[]): Promise<{ offers: TierOffer[]; validUntil?: number }> => {
    const found = await Promise.all(tiers.map(async (tier) => {
      const link = await linkForTier(db, brandId, tier.id);
      const mode: Mode = link?.mode ?? 'live';
      const left = tier.slots !== null ? (await slotsLeft(db, brandId, mode, [tier])).get(tier.id) : undefined;
      return { offer: { tier, ...(left !== undefined ? { left } : {}), ...(link ? { buyUrl: `${config.publicUrl}${checkoutLinkPath(brandId, link.id)}?tier=${encodeURIComponent(tier.id)}` } : {}) }, expires: link?.expires_at ?? null };
    }));
    const validUntil = nextBoundary([...tiers.map((t) => t.time_bound), ...found.map((f) => f.expires)]);
    return { offers: found.map((f) => f.offer), ...(validUntil !== undefined ? { validUntil } : {}) };
  };

  parent.register(async (app: App) => {
    app.setErrorHandler((err, _req, reply) => {
      if ((err as { validationContext?: string }).validationContext) return notFoundPage(reply);
      reply.log.error({ err }, 'storefront page failed');
      return sendPage(reply, 500, messagePage('Something went wrong', 'Please try again in a moment.'));
    });

    app.get('/s/:slug', { schema: { hide: true, params: Type.Object({ slug: Slug }) } }, async (req, reply) => {
      const view = await brandOf(req.params.slug, '', reply);
      if (!view) return reply;
      const { id: brandId } = view.brand;
      const page = await cachedPage(catalogCache, brandId, 'storefront', async () => {
        const [products, hubs] = await Promise.all([repo.listedProducts(db, brandId), repo.allHubs(db, brandId)]);
        const tiers = await repo.tiersOnSale(db, brandId, [...products.map((p) => p.id), ...hubs.map((h) => h.id)]);
        const html = storefrontPage(view,
          products.map((row) => ({ row, tiers: tiers.filter((t) => t.product_id === row.id), url: `${view.home}/p/${encodeURIComponent(row.id)}` })),
          hubs.map((row) => ({ row, tiers: tiers.filter((t) => t.hub_id === row.id), url: `${view.home}/h/${encodeURIComponent(row.id)}` }))
            .filter((h) => h.tiers.length));
        const validUntil = nextBoundary(tiers.map((t) => t.time_bound));
        return { html, ...(validUntil !== undefined ? { validUntil } : {}) };
      });
      return sendPage(reply, 200, page.html!, { cacheControl });
    });

    app.get('/s/:slug/p/:id', { schema: { hide: true, params: Type.Object({ slug: Slug, id: Id }) } }, async (req, reply) => {
      const view = await brandOf(req.params.slug, `/p/${encodeURIComponent(req.params.id)}`, reply);
      if (!view) return reply;
      const page = await cachedPage(catalogCache, view.brand.id, `product:${req.params.id}`, async () => {
        const product = await repo.visibleProduct(db, view.brand.id, req.params.id);
        if (!product) return {};
        const [tiers, items] = await Promise.all([repo.tiersOnSale(db, view.brand.id, [product.id]), productItems(db, view.brand.id, product.id)]);
        const url = `${view.home}/p/${encodeURIComponent(product.id)}`;
        const { offers, validUntil } = await offersFor(view.brand.id, tiers);
        return { html: productPage(view, product, url, offers, items), ...(validUntil !== undefined ? { validUntil } : {}) };
      });
      if (page.html === undefined) return notFoundPage(reply);
      return sendPage(reply, 200, page.html, { cacheControl });
    });

    app.get('/s/:slug/h/:id', { schema: { hide: true, params: Type.Object({ slug: Slug, id: Id }) } }, async (req, reply) => {
      const view = await brandOf(req.params.slug, `/h/${encodeURIComponent(req.params.id)}`, reply);
      if (!view) return reply;
      const page = await cachedPage(catalogCache, view.brand.id, `hub:${req.params.id}`, async () => {
        const hub = await findHub(db, view.brand.id, req.params.id);
        if (!hub) return {};
        const [tiers, products] = await Promise.all([repo.tiersOnSale(db, view.brand.id, [hub.id]), repo.listedProducts(db, view.brand.id)]);
        const url = `${view.home}/h/${encodeURIComponent(hub.id)}`;
        const { offers, validUntil } = await offersFor(view.brand.id, tiers);
        const html = hubPage(view, hub, url, offers, products.filter((p) => p.hub_id === hub.id).map((row) => ({ row, url: `${view.home}/p/${encodeURIComponent(row.id)}` })));
        return { html, ...(validUntil !== undefined ? { validUntil } : {}) };
      });
      if (page.html === undefined) return notFoundPage(reply);
      return sendPage(reply, 200, page.html, { cacheControl });
    });
  });
}
