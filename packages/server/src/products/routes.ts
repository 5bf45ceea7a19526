import type { App } from '../http/app-type.ts';
import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import { PageQuery } from '../db/paging.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { Product, ProductSummary } from './schemas.ts';
import * as service from './service.ts';

export function productRoutes(app: App, { db }: { db: Db }) {
  app.get('/products', {
    schema: {
      summary: 'List products',
      description: 'The brand\'s products, newest first. Products are shared by test and live mode.',
      tags: ['Products'],
      querystring: PageQuery,
      response: { 200: Envelope(ListOf(ProductSummary)) },
    },
    config: { auth: { scope: 'products:read' } },
  }, async (req) => ok('Products retrieved', await service.listProducts(db, principalOf(req), req.query)));

  app.get('/products/:id', {
    schema: {
      summary: 'Get a product',
      description: 'One product with its tiers, items and checkout fields.',
      tags: ['Products'],
      params: Type.Object({ id: Type.String() }),
      response: { 200: Envelope(Product) },
    },
    config: { auth: { scope: 'products:read' } },
  }, async (req) => ok('Product retrieved', await service.getProduct(db, principalOf(req), req.params.id)));
}
