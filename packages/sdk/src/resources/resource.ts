import { PagePromise, type Page } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';

/** `encodeURIComponent` for path segments, refusing empty ids (which would address another route). */
export function segment(value: string, name: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`\`${name}\` must be a non-empty string.`);
  return encodeURIComponent(value);
}

/** A list call: the query with `cursor` replaced page by page. */
export function list<T>(requester: Requester, path: string, params: { cursor?: string } & Record<string, string | number | boolean | undefined> = {}, options?: RequestOptions): PagePromise<T> {
  return new PagePromise<T>(
    (cursor) => requester.request<Page<T>>({ method: 'GET', path, query: { ...params, cursor }, options }),
    params.cursor,
  );
}
