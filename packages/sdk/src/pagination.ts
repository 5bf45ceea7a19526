/** One page of a list, exactly as the API answers it. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Pass as `cursor` for the next page; empty on the last page. */
  nextCursor: string;
}

export interface ToArrayOptions {
  /** The most items to collect: required, so a loop over a huge list cannot fill memory by accident. */
  max: number;
}

/**
 * What every `list()` returns, as in stripe-node: awaiting it gives the first page
 * (`{ items, hasMore, nextCursor }`); `for await` walks every item of every page; `.pages()`
 * yields page by page; `.toArray({ max })` collects up to a cap. Nothing is fetched until one of
 * those is used, and the first page is fetched once however many of them are.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first?: Promise<Page<T>>;
  private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>;
  private readonly cursor: string | undefined;

  constructor(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, cursor?: string) {
    this.fetchPage = fetchPage;
    this.cursor = cursor;
  }

  private firstPage(): Promise<Page<T>> {
    return (this.first ??= this.fetchPage(this.cursor));
  }

  then<A = Page<T>, B = never>(
    onfulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.firstPage().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.firstPage().finally(onfinally);
  }

  /** Every page in turn, the first one included; stops after the page with `hasMore: false`. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.firstPage();
    yield page;
    while (page.hasMore && page.nextCursor) {
      page = await this.fetchPage(page.nextCursor);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Up to `max` items from the start of the list, fetching only the pages needed. */
  async toArray(options: ToArrayOptions): Promise<T[]> {
    const max = options?.max;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
      throw new TypeError('toArray() needs { max }: the most items to collect, e.g. toArray({ max: 1000 }). Use `for await` to walk a list of any length.');
    }
    const out: T[] = [];
    if (max === 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }
}
