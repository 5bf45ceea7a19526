import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { Import, ImportBody, importBodyLimitBytes, ImportQuery, ImportQueued, maxImportRecords } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

const rules = `Every record is checked before anything is queued: if any record is invalid the answer is 400 `
  + `with up to 100 problems in \`data.details\` as \`{ index, field, message }\`, and nothing is imported. `
  + `At most ${maxImportRecords.toLocaleString('en-US')} records per request. Records repeating an earlier email (case-insensitive) are counted once; `
  + `people who already have an active membership here in the key's mode are left as they are; a removed or expired membership is `
  + `reactivated (same id). Each new or reactivated membership is active and emits one \`member.joined\` event. Answers 202 at once with \`importID\`; follow progress with GET /imports/{id}.`;

export function importRoutes(app: App, { db, config }: { db: Db; config: { bodyLimitBytes: number; importBatchSize: number } }) {
  const bodyLimit = Math.max(config.bodyLimitBytes, importBodyLimitBytes);

  app.post('/hubs/:hubID/members/import', {
    bodyLimit,
    schema: {
      summary: 'Import hub members',
      description: `Queues hub members for import. Hub records take only \`fullName\` and \`email\`. Without \`plan\`, members join the hub's free tier. ${rules}`,
      tags: ['Hub members'],
      params: Type.Object({ hubID: Type.String() }),
      body: ImportBody,
      response: { 202: Envelope(ImportQueued) },
    },
    config: { operation: contract.importHubMembers, auth: { scope: 'customers:write' }, budget: 'imports' },
  }, async (req, reply) => write(db, req, reply, (tx) => service.queueHubImport(tx, principalOf(req), req.params.hubID, req.body, config.importBatchSize), 'Import queued', 202));

  app.post('/products/:id/customers/import', {
    bodyLimit,
    schema: {
      summary: 'Import a product\'s customers',
      description: `Queues customers of the product for import. Records may add \`phone\` and any id in the product's \`checkoutFields\`, `
        + `with a value of the field's type. Without \`plan\`, customers get the product's default tier. ${rules}`,
      tags: ['Products'],
      params: Type.Object({ id: Type.String() }),
      body: ImportBody,
      response: { 202: Envelope(ImportQueued) },
    },
    config: { operation: contract.importProductCustomers, auth: { scope: 'customers:write' }, budget: 'imports' },
  }, async (req, reply) => write(db, req, reply, (tx) => service.queueProductImport(tx, principalOf(req), req.params.id, req.body, config.importBatchSize), 'Import queued', 202));

  app.get('/imports/:id', {
    schema: {
      summary: 'Get an import',
      description: 'Our addition to the reference: the status of an import made with POST …/import, with counts of people created, '
        + 'reactivated, left unchanged, refused and failed, and its timestamps; with `?records=true`, what happened to each record. '
        + 'Only the brand and mode that made the import see it. '
        + 'Needs customers:write, the scope that made the import.',
      tags: ['Imports'],
      params: Type.Object({ id: Type.String({ description: 'The importID the import request answered.' }) }),
      querystring: ImportQuery,
      response: { 200: Envelope(Import) },
    },
    config: { operation: contract.getImport, auth: { scope: 'customers:write' } },
  }, async (req) => ok('Import retrieved', await service.getImport(db, principalOf(req), req.params.id, req.query)));
}
