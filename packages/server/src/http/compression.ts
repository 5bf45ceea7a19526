import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Compression of what a browser loads: the pages (API reference, guides, checkout, the
 * dashboard's HTML) and their assets, in brotli or gzip as the browser accepts
 * (docs/performance.md, "Compressed pages and assets", has the sizes before and after).
 *
 * Installed on the pages' own plugin context (app.ts), not on the JSON API: API answers are small
 * and many, a client on a server rarely gains from them compressed, and a compressed answer that
 * carries both a secret (a key shown once, a CSRF token) and text the caller chose is what
 * BREACH-style attacks read. The pages compressed here hold no secret.
 *
 * Big files are never compressed per request: the dashboard's assets are compressed at build time
 * (static.ts, `preCompressed`), and the API reference's script once per process (`precompressed`
 * below). What is left (pages of a few kB) is compressed as it is sent, at brotli's quality 4
 * (@fastify/compress's default), which costs about as much as gzip.
 */
export async function installCompression(pages: FastifyInstance) {
  await pages.register(compress, {
    encodings: ['br', 'gzip'],
    // Below this the headers cost more than the bytes saved.
    threshold: 1024,
    // Pages, styles, scripts and the documents the reference reads (OpenAPI JSON, guides).
    customTypes: /^(text\/(html|css|markdown|plain)|application\/(javascript|json)|image\/svg\+xml)/,
  });
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** One file in every encoding it is served in, made once, with an ETag of its bytes. */
export interface Precompressed {
  identity: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * Compresses a big, unchanging file once (in the thread pool: the event loop never waits for it).
 * gzip is ready first (about 0.4 s for the API reference's 4.9 MB script) and brotli at quality 5
 * later (about 2 s; quality 11 would take most of a minute for 13% fewer bytes): requests in
 * between get gzip. Resolves when gzip is ready.
 */
export async function precompressed(bytes: Buffer): Promise<Precompressed> {
  const file: Precompressed = { identity: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
  file.gzip = await gzipAsync(bytes, { level: 9 });
  void brotli(bytes, { params: {
    [constants.BROTLI_PARAM_QUALITY]: 5,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  } }).then((br) => { file.br = br; }, () => { /* gzip and identity still serve */ });
  return file;
}

/**
 * Sends a precompressed file in the best encoding the request accepts and that is ready, with
 * its ETag (304 when the browser has it) and `Vary: Accept-Encoding` for caches between.
 */
export function sendPrecompressed(req: FastifyRequest, reply: FastifyReply, file: Precompressed) {
  reply.header('vary', 'accept-encoding').header('etag', file.etag);
  if (req.headers['if-none-match'] === file.etag) return reply.code(304).send();
  const ready = (['br', 'gzip'] as const).filter((encoding) => file[encoding]);
  const accepted = negotiate(String(req.headers['accept-encoding'] ?? ''), [...ready, 'identity']);
  if (accepted === 'br' || accepted === 'gzip') return reply.header('content-encoding', accepted).send(file[accepted]);
  return reply.send(file.identity);
}
