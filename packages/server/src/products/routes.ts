import type { App } from '../http/app-type.ts';
import { Type } from 'typebox';
import type { CatalogCache } from '../catalog-cache/cache.ts';
import { cachedAnswer, pageKey } from '../catalog-cache/cached-answer.ts';
import type { Db } from '../db/client.ts';
import { PageQuery } from '../db/paging.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { Product, ProductCreateBody, ProductSummary, ProductUpdateBody } from './schemas.ts';
import * as service from './service.ts';
import * as writes from './writes.ts';
import * as contract from './contract.ts';

const edit = { auth: { scope: 'products:write' as const } };
const shared = 'The catalog is shared by test and live mode: a test key with products:write edits the product live buyers see.';

export function productRoutes(app: App, { db, catalogCache, config }: { db: Db; catalogCache: CatalogCache; config: { publicUrl: string } }) {
  const { publicUrl } = config;
  app.get('/products', {
    schema: {
      summary: 'List products',
      description: 'The brand\'s products, newest first. Products are shared by test and live mode.',
      tags: ['Products'],
      querystring: PageQuery,
      response: { 200: Envelope(ListOf(ProductSummary)) },
    },
    config: { operation: contract.listProducts, auth: { scope: 'products:read' } },
  }, async (req, reply) => cachedAnswer(catalogCache, req, reply, pageKey('products', req.query),
    async () => ok('Products retrieved', await service.listProducts(db, principalOf(req), req.query, publicUrl))));

  app.get('/products/:id', {
    schema: {
      summary: 'Get a product',
      description: 'One product with its tiers, items and checkout fields.',
      tags: ['Products'],
      params: Type.Object({ id: Type.String() }),
      response: { 200: Envelope(Product) },
    },
    config: { operation: contract.getProduct, auth: { scope: 'products:read' } },
  }, async (req, reply) => cachedAnswer(catalogCache, req, reply, `product/${req.params.id}`,
    async () => ok('Product retrieved', await service.getProduct(db, principalOf(req), req.params.id, publicUrl))));

  app.post('/products', {
    schema: {
      summary: 'Create a product',
      description: 'Our addition. A product with its tiers, items and checkout fields, checked by the rules of catalog files; '
        + `answers exactly what GET /products/{id} returns. An item may carry a \`ref\` that tiers' \`itemIDs\` point at. ${shared}`,
      tags: ['Products'],
      body: ProductCreateBody,
      response: { 200: Envelope(Product) },
    },
    config: { ...edit, operation: contract.createProduct },
  }, async (req, reply) => write(db, req, reply, (tx) => writes.createProduct(tx, principalOf(req), req.body, publicUrl), 'Product created'));

  app.patch('/products/:id', {
    schema: {
      summary: 'Update a product',
      description: 'Our addition. Changes the fields sent and leaves the others (`null` clears an optional one). `tiers`, `items` and '
        + '`checkoutFields`, when sent, are the whole list in order: an entry with an id updates it, one without adds one, and one left out '
        + 'is deleted, or archived if it was ever sold (a tier) or a remaining tier includes it (an item). Answers exactly what '
        + `GET /products/{id} returns. ${shared}`,
      tags: ['Products'],
      params: Type.Object({ id: Type.String() }),
      body: ProductUpdateBody,
      response: { 200: Envelope(Product) },
    },
    config: { ...edit, operation: contract.updateProduct },
  }, async (req, reply) => write(db, req, reply, (tx) => writes.updateProduct(tx, principalOf(req), req.params.id, req.body, publicUrl), 'Product updated'));
}
