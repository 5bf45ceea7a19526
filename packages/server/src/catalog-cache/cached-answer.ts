import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/resolve.ts';
import type { CatalogCache } from './cache.ts';

/**
 * Answers a catalog read from the cache: the route's own serialisation of answer() (the same bytes
 * the response schema would write, kept encoded so a hit costs no UTF-8 encoding), cached for the principal's brand under key. The catalog is
 * shared by test and live mode, so one entry serves both; the route's auth has already run.
 * Errors (not_found, a bad cursor) are thrown as usual and never cached.
 */
export async function cachedAnswer(
  cache: CatalogCache,
  req: FastifyRequest,
  reply: FastifyReply,
  key: string,
  answer: () => Promise<unknown>,
) {
  const body = await cache.read(principalOf(req).brandId, key,
    async () => Buffer.from(reply.serialize(await answer()) as string));
  return reply.type('application/json; charset=utf-8').send(body);
}

/** The cache key of a list page: the validated page query only, so other query parameters cannot multiply entries. */
export const pageKey = (what: string, query: { limit?: number; cursor?: string }) =>
  `${what}?limit=${query.limit ?? ''}&cursor=${query.cursor ?? ''}`;
