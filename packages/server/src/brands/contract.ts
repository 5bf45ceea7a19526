/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /brand */
export const getBrand: Operation = {
  id: 'getBrand',
  sdk: 'const brand = await client.brand.get();\nconsole.log(brand.storefrontUrl);',
  mcp: {
    name: 'get_brand',
    description: 'Get the brand profile: display name, storefront address, logo, accent colour, support email, time zone.',
    ...readTool
  }
};

/** PATCH /brand */
export const updateBrand: Operation = {
  id: 'updateBrand',
  sdk: "const brand = await client.brand.update({ displayName: 'Inkwell Studio', slug: 'inkwell', accentColor: '#6b21a8', timeZone: 'Europe/Lisbon' });",
  body: { displayName: 'Inkwell Studio', slug: 'inkwell', accentColor: '#6b21a8', timeZone: 'Europe/Lisbon' },
  mcp: {
    name: 'update_brand',
    description: 'Change the brand profile the public storefront shows (slug, display name, logo, colour, support email, time zone), and the sites that may embed its checkout (embedOrigins).',
    destructive: true,
    idempotent: true
  }
};
