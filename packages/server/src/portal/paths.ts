/** The portal's address of a brand: by its slug, or its id until it has one (as the storefront's). */
export const portalPath = (brand: { id: string; slug: string | null }) => `/portal/${encodeURIComponent(brand.slug ?? brand.id)}`;
