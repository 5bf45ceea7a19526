/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /products */
export const listProducts: Operation = {
  id: 'listProducts',
  sdk: 'for await (const product of client.products.list({ limit: 50 })) {\n  console.log(product.id, product.title);\n}',
  mcp: { name: 'list_products', description: "List the brand's products, newest first (page with cursor).", ...readTool }
};

/** GET /products/{id} */
export const getProduct: Operation = {
  id: 'getProduct',
  sdk: "const product = await client.products.get('prod_…');",
  mcp: { name: 'get_product', description: 'Get one product with its tiers, items and checkout fields.', ...readTool }
};

/** POST /products */
export const createProduct: Operation = {
  id: 'createProduct',
  sdk: 'const product = await client.products.create({\n' +
    "  type: 'course',\n" +
    "  title: 'Inking basics',\n" +
    "  items: [{ ref: 'lesson-1', type: 'lesson', title: 'Pens' }],\n" +
    "  tiers: [{ name: 'Standard', price: { amount: 30, currency: 'USD' }, itemIDs: ['lesson-1'] }],\n" +
    "  checkoutFields: [{ label: 'Company name', type: 'text' }],\n" +
    '});',
  body: {
    type: 'course',
    title: 'Inking basics',
    items: [{ ref: 'lesson-1', type: 'lesson', title: 'Pens' }],
    tiers: [{ name: 'Standard', price: { amount: 30, currency: 'USD' }, itemIDs: ['lesson-1'] }],
    checkoutFields: [{ label: 'Company name', type: 'text' }]
  },
  mcp: {
    name: 'create_product',
    description: 'Create a product with its tiers (prices), items and checkout fields; answers the product as get_product does. The catalog is shared by test and live mode: this changes what live buyers see.'
  }
};

/** PATCH /products/{id} */
export const updateProduct: Operation = {
  id: 'updateProduct',
  sdk: "const product = await client.products.get('prod_…');\n" +
    'const updated = await client.products.update(product.id, {\n' +
    "  title: 'Inking basics, revised',\n" +
    '  // The whole list: tiers left out are deleted, or archived if they were ever sold.\n' +
    "  tiers: [{ id: product.tiers[0].id, name: 'Standard', price: { amount: 25, currency: 'USD' } }],\n" +
    '});',
  body: {
    title: 'Inking basics, revised',
    tiers: [{ id: 'tier_…', name: 'Standard', price: { amount: 25, currency: 'USD' } }]
  },
  mcp: {
    name: 'update_product',
    description: 'Change a product: only the fields given change. tiers, items and checkoutFields, when given, are the whole list: entries with an id are kept and updated, entries without one added, and ones left out deleted (or archived if ever sold); get the current lists first. The catalog is shared by test and live mode: this changes what live buyers see.',
    destructive: true,
    idempotent: true
  }
};

/** PUT /products/{id}/items/{itemId}/file */
export const uploadItemFile: Operation = {
  id: 'uploadItemFile',
  sdk: "import { openAsBlob } from 'node:fs';\n" +
    "const item = await client.products.items.uploadFile('prod_…', 'item_…', await openAsBlob('workbook.pdf', { type: 'application/pdf' }), { filename: 'workbook.pdf' });\n" +
    'console.log(item.content?.version);',
  errors: [413, 415]
};

/** GET /products/{id}/items/{itemId}/file */
export const downloadItemFile: Operation = { id: 'downloadItemFile', sdk: "const bytes = await client.products.items.downloadFile('prod_…', 'item_…');" };

/** PUT /products/{id}/items/{itemId}/content */
export const setItemLink: Operation = {
  id: 'setItemLink',
  sdk: "const item = await client.products.items.setLink('prod_…', 'item_…', { url: 'https://video.example.com/ink-night/recording' });",
  body: { url: 'https://video.example.com/ink-night/recording' }
};

/** DELETE /products/{id}/items/{itemId}/content */
export const removeItemContent: Operation = { id: 'removeItemContent', sdk: "const item = await client.products.items.removeContent('prod_…', 'item_…');" };
