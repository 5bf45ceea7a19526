import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { Brand, BrandUpdateBody } from './schemas.ts';
import * as profile from './profile.ts';
import * as contract from './contract.ts';

/** Our addition: the brand profile the public pages show (docs/storefront.md). Shared by test and live mode. */
export function brandRoutes(app: App, { db, config }: { db: Db; config: { publicUrl: string } }) {
  app.get('/brand', {
    schema: {
      summary: 'Get the brand profile',
      description: 'Our addition. The brand\'s public profile: display name, storefront slug and address, logo, accent colour, support email, '
        + 'time zone and default currency. Shared by test and live mode.',
      tags: ['Brand'],
      response: { 200: Envelope(Brand) },
    },
    config: { operation: contract.getBrand, auth: { scope: 'products:read' } },
  }, async (req) => ok('Brand retrieved', await profile.getBrand(db, principalOf(req), config.publicUrl)));

  app.patch('/brand', {
    schema: {
      summary: 'Update the brand profile',
      description: 'Our addition. Changes the fields sent (`null` clears one). The slug is unique across the service (409 when taken); '
        + 'the accent colour must be dark enough for white button text. Products without their own `url` then point at the new address. '
        + 'Shared by test and live mode: a test key with products:write changes what live buyers see.',
      tags: ['Brand'],
      body: BrandUpdateBody,
      response: { 200: Envelope(Brand) },
    },
    config: { operation: contract.updateBrand, auth: { scope: 'products:write' } },
  }, async (req, reply) => write(db, req, reply, (tx) => profile.updateBrand(tx, principalOf(req), req.body, config.publicUrl), 'Brand updated'));
}
