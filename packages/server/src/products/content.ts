import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Principal } from '../auth/principal.ts';
import { catalogChanged } from '../catalog-cache/version.ts';
import type { Db, Queryable } from '../db/client.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { FileTooLarge, type FileStore } from '../files/store.ts';
import { queueContentNews } from '../mail/content-news.ts';
import { renderItem } from './render.ts';
import * as repo from './repository.ts';
import type { Item } from './schemas.ts';

/**
 * An item's content (docs/files.md): a file uploaded to the file store, or a URL. The catalog is
 * shared by both modes, as the rest of a product is.
 */

/** What an item's file may be: documents, audio, video, archives, images. */
const allowedTypes = [
  /^application\/pdf$/, /^application\/epub\+zip$/, /^audio\/[\w.+-]+$/, /^video\/[\w.+-]+$/, /^image\/[\w.+-]+$/,
  /^application\/(zip|x-zip-compressed|gzip|x-gzip|x-tar|x-7z-compressed|vnd\.rar|x-rar-compressed)$/,
];

export function checkFileType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!type) throw new AppError('unsupported_media_type', 'Send the file\'s media type in the Content-Type header, such as application/pdf, audio/mpeg, video/mp4 or application/zip.');
  if (!allowedTypes.some((re) => re.test(type))) {
    throw new AppError('unsupported_media_type', `Content-Type ${type} is not a kind of file an item can hold: send a PDF, EPUB, audio, video, image or archive (zip, gzip, tar, 7z, rar) with its own media type.`);
  }
  return type;
}

/** A name buyers' browsers save the file under: no path, no control or quote characters. */
export function checkFileName(name: string | undefined, type: string): string {
  const clean = (name ?? '').replace(/^.*[\\/]/, '').replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  if (name !== undefined && !clean) throw invalid('filename', 'must be a file name such as ink-basics.pdf', 'query parameter');
  if (clean.length > 200) throw invalid('filename', 'must be at most 200 characters', 'query parameter');
  return clean || `file.${type.split('/')[1].replace(/^x-/, '').replace(/[^\w]+.*$/, '') || 'bin'}`;
}

async function requireItem(db: Queryable, principal: Principal, productId: string, itemId: string, opts: { forUpdate?: boolean } = {}) {
  const product = await repo.findProduct(db, principal.brandId, productId);
  if (!product) throw notFound('product');
  const item = await repo.findItem(db, principal.brandId, productId, itemId, opts);
  if (!item) throw notFound('item');
  return item;
}

/**
 * PUT /products/{id}/items/{itemId}/file. Commits twice, so it is a flow: the bytes go to the store
 * under a new key first (no transaction is held open while a 2 GB upload arrives), then one
 * transaction points the item at them; the replaced file is removed only after that commit, so a
 * buyer's download never finds its file gone, and a failed commit removes the new bytes instead.
 */
export async function uploadItemFile(
  db: Db, store: FileStore, principal: Principal,
  input: { productId: string; itemId: string; body: Readable; contentType: string | undefined; fileName: string | undefined; maxBytes: number; notify?: NewsKeys },
): Promise<Item> {
  const type = checkFileType(input.contentType);
  const name = checkFileName(input.fileName, type);
  await requireItem(db, principal, input.productId, input.itemId);
  const key = `items/${principal.brandId}/${input.itemId}/${randomUUID()}`;
  let stored;
  try {
    stored = await store.put(key, input.body, { maxBytes: input.maxBytes, contentType: type });
  } catch (err) {
    if (err instanceof FileTooLarge) throw new AppError('payload_too_large', `The file is larger than this server's limit of ${err.limit} bytes (FILE_MAX_BYTES).`);
    throw err;
  }
  if (stored.size === 0) {
    await store.remove(key);
    throw invalid('body', 'is empty: send the file\'s bytes as the request body');
  }
  let replaced: string | null = null;
  let row: repo.ItemRow;
  try {
    row = await db.transaction(async (tx) => {
      const item = await requireItem(tx, principal, input.productId, input.itemId, { forUpdate: true });
      replaced = item.file_key ?? null;
      const updated = await repo.setItemFile(tx, principal.brandId, item.id, { key, name, type, ...stored });
      await catalogChanged(tx, principal.brandId);
      if (input.notify) await tellBuyers(tx, principal, updated, `v${updated.file_version}`, item.file_key || item.content_url ? 'replaced' : 'added', input.notify);
      return updated;
    });
  } catch (err) {
    await store.remove(key).catch(() => undefined);
    throw err;
  }
  if (replaced) await store.remove(replaced).catch(() => undefined);
  return renderItem(row);
}

/** What the "new in <product>" mail needs to sign its unsubscribe link (mail/unsubscribe.ts). */
export interface NewsKeys { serverKey: Buffer; publicUrl: string }

/** `?notifyBuyers=true`: the buyers who can open the item and opted in hear of it, in this transaction (mail/content-news.ts). */
async function tellBuyers(tx: Queryable, principal: Principal, item: repo.ItemRow, version: string, change: 'replaced' | 'added', keys: NewsKeys) {
  const product = await repo.findProduct(tx, principal.brandId, item.product_id);
  await queueContentNews(tx, principal, { itemId: item.id, item: item.title, product: product?.title ?? item.title, version, change }, keys);
}

/** PUT /products/{id}/items/{itemId}/content: the item's content becomes a URL. Returns the key of a file it let go. */
export async function setItemUrl(tx: Queryable, principal: Principal, productId: string, itemId: string, url: string | null, notify?: NewsKeys) {
  const item = await requireItem(tx, principal, productId, itemId, { forUpdate: true });
  const row = await repo.setItemUrl(tx, principal.brandId, item.id, url);
  await catalogChanged(tx, principal.brandId);
  if (notify && url) await tellBuyers(tx, principal, row, `url:${createHash('sha256').update(url).digest('hex').slice(0, 16)}`, item.file_key || item.content_url ? 'replaced' : 'added', notify);
  return { item: renderItem(row), released: item.file_key };
}

/** The creator's own copy of the item's file (GET …/file), whatever the mode. */
export async function openItemFile(db: Queryable, store: FileStore, principal: Principal, productId: string, itemId: string) {
  const item = await requireItem(db, principal, productId, itemId);
  if (!item.file_key) throw new AppError('not_found', 'This item has no file: upload one with PUT /products/{id}/items/{itemId}/file.');
  const stream = await store.open(item.file_key);
  if (!stream) throw new AppError('not_found', 'The item\'s file is missing from the file store.');
  return { stream, item };
}
