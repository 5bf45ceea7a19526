import { Type } from 'typebox';
import type { Readable } from 'node:stream';
import { principalOf } from '../auth/resolve.ts';
import type { Db } from '../db/client.ts';
import type { FileSettings } from '../config.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { App } from '../http/app-type.ts';
import { Envelope, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import type { FileStore } from '../files/store.ts';
import * as content from './content.ts';
import { Item, ItemContentBody } from './schemas.ts';
import * as contract from './contract.ts';

const edit = { auth: { scope: 'products:write' as const } };
const Params = Type.Object({ id: Type.String(), itemId: Type.String() });

/**
 * An item's content (docs/files.md). The upload takes the file as the raw request body, streamed
 * to the file store: a multipart form would make every client build one, and the raw body is what
 * curl's --data-binary and fetch(file) send.
 */
const NotifyBuyers = Type.Optional(Type.Boolean({
  description: 'Tell buyers: everyone who can open this item and agreed to the brand\'s mail (`receiveEmails: true`) gets a "New in <product>" '
    + 'mail (marketing, with a one-click unsubscribe). Default false.',
}));

export function itemContentRoutes(parent: App, { db, store, files, secrets, publicUrl }: { db: Db; store: FileStore; files: FileSettings; secrets: { webhookKey: Buffer }; publicUrl: string }) {
  const news = { serverKey: secrets.webhookKey, publicUrl };
  // Its own scope: the any-type parser that hands the route the request stream applies here only.
  const uploads: FastifyPluginAsyncTypebox = async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

    app.put('/products/:id/items/:itemId/file', {
      schema: {
        summary: 'Upload an item\'s file',
        description: 'Our addition. The request body is the file itself (not a form), with its media type as Content-Type: a PDF, '
          + 'EPUB, audio, video, image or archive. It is streamed to the file store, never held in memory; the limit is FILE_MAX_BYTES '
          + '(2 GB unless the operator set another; 413 past it). Replacing a file makes a new `content.version`: buyers get the new '
          + 'file from then on; with `notifyBuyers=true` they are told by mail. Answers the item with its `content`.',
        tags: ['Products'],
        params: Params,
        querystring: Type.Object({
          filename: Type.Optional(Type.String({ maxLength: 255, description: 'The name buyers download it under, such as ink-basics.pdf.' })),
          notifyBuyers: NotifyBuyers,
        }, { additionalProperties: false }),
        consumes: ['application/pdf', 'audio/mpeg', 'video/mp4', 'application/zip', 'application/octet-stream'],
        response: { 200: Envelope(Item) },
      },
      config: { operation: contract.uploadItemFile, ...edit, deadlineMs: files.uploadTimeoutMs },
    }, async (req) => ok('File uploaded', await content.uploadItemFile(db, store, principalOf(req), {
      productId: req.params.id, itemId: req.params.itemId, body: req.body as unknown as Readable,
      contentType: req.headers['content-type'], fileName: req.query.filename, maxBytes: files.maxBytes,
      ...(req.query.notifyBuyers ? { notify: news } : {}),
    })));
  };
  parent.register(uploads);

  parent.get('/products/:id/items/:itemId/file', {
    schema: {
      summary: 'Download an item\'s file',
      description: 'Our addition. The item\'s current file, as the creator uploaded it (buyers download through the portal).',
      tags: ['Products'],
      params: Params,
      produces: ['application/octet-stream'],
      response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'The file\'s bytes.' }) },
    },
    config: { operation: contract.downloadItemFile, auth: { scope: 'products:read' } },
  }, async (req, reply) => {
    const { stream, item } = await content.openItemFile(db, store, principalOf(req), req.params.id, req.params.itemId);
    return reply.type(item.file_type ?? 'application/octet-stream')
      .header('content-length', String(item.file_size))
      .header('content-disposition', `attachment; filename="${item.file_name}"`)
      .send(stream);
  });

  parent.put('/products/:id/items/:itemId/content', {
    schema: {
      summary: 'Set an item\'s link',
      description: 'Our addition. The item\'s content becomes a link buyers open from the portal; a file it had is removed. '
        + 'With `notifyBuyers=true`, buyers who opted in to the brand\'s mail are told.',
      tags: ['Products'],
      params: Params,
      querystring: Type.Object({ notifyBuyers: NotifyBuyers }, { additionalProperties: false }),
      body: ItemContentBody,
      response: { 200: Envelope(Item) },
    },
    config: { ...edit, operation: contract.setItemLink },
  }, async (req, reply) => releasing(store, (keep) => write(db, req, reply, async (tx) => {
    const { item, released } = await content.setItemUrl(tx, principalOf(req), req.params.id, req.params.itemId, req.body.url, req.query.notifyBuyers ? news : undefined);
    keep(released ?? null);
    return item;
  }, 'Item content set')));

  parent.delete('/products/:id/items/:itemId/content', {
    schema: {
      summary: 'Remove an item\'s content',
      description: 'Our addition. The item keeps its title and place but no longer has a file or link.',
      tags: ['Products'],
      params: Params,
      response: { 200: Envelope(Item) },
    },
    config: { ...edit, operation: contract.removeItemContent },
  }, async (req, reply) => releasing(store, (keep) => write(db, req, reply, async (tx) => {
    const { item, released } = await content.setItemUrl(tx, principalOf(req), req.params.id, req.params.itemId, null);
    keep(released ?? null);
    return item;
  }, 'Item content removed')));
}

/** Runs a write, then removes the file it let go, only once it committed (a rollback throws first). */
async function releasing<T>(store: FileStore, run: (keep: (key: string | null) => void) => Promise<T>): Promise<T> {
  let released: string | null = null;
  const answer = await run((key) => { released = key; });
  if (released) await store.remove(released).catch(() => undefined);
  return answer;
}
