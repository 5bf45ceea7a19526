import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { AvailabilityParams, CustomerListParams, ImportParams, ImportQueued, Item, ItemContentParams, ListParams, Membership, Product, ProductCreateParams, ProductAvailability, ProductSummary, ProductUpdateParams } from '../types.ts';
import { list, segment } from './resource.ts';

export class ProductCustomers {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /products/{id}/customers: the product's active purchasers (or those in the `status` given; `email` finds one person), newest first. Scope `customers:read`. */
  list(productId: string, params?: CustomerListParams, options?: RequestOptions): PagePromise<Membership> {
    return list(this.#r, `/products/${segment(productId, 'productId')}/customers`, params, options);
  }

  /** POST /products/{id}/customers/import: queues customers for import (answered 202). Scope `customers:write`. */
  import(productId: string, params: ImportParams, options?: RequestOptions): Promise<ImportQueued> {
    return this.#r.request({ method: 'POST', path: `/products/${segment(productId, 'productId')}/customers/import`, body: params, options });
  }
}

/** What a product's items give buyers (docs/files.md): a file or a link. */
export class ProductItems {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /**
   * PUT /products/{id}/items/{itemId}/file: uploads the item's file (a PDF, EPUB, audio, video,
   * image or archive), streamed to the server's file store. A `Blob` (a browser `File`) carries its
   * own type; give `contentType` for bytes or a stream. Replacing a file makes a new version, which
   * buyers get from then on; `notifyBuyers: true` mails the buyers who can open it and agreed to
   * the brand's mail ("New in <product>"). A stream is sent once (not retried). Scope `products:write`.
   */
  uploadFile(
    productId: string, itemId: string, data: Blob | Uint8Array | ReadableStream<Uint8Array>,
    params: { contentType?: string; filename?: string; notifyBuyers?: boolean } = {}, options?: RequestOptions,
  ): Promise<Item> {
    const contentType = params.contentType ?? (data instanceof Blob ? data.type : '');
    const filename = params.filename ?? (typeof File !== 'undefined' && data instanceof File ? data.name : undefined);
    return this.#r.request({
      method: 'PUT', path: `/products/${segment(productId, 'productId')}/items/${segment(itemId, 'itemId')}/file`,
      query: { filename, notifyBuyers: params.notifyBuyers }, upload: { data, contentType }, options,
    });
  }

  /** GET /products/{id}/items/{itemId}/file: the item's current file, as bytes. Scope `products:read`. */
  downloadFile(productId: string, itemId: string, options?: RequestOptions): Promise<Uint8Array> {
    return this.#r.request({ method: 'GET', path: `/products/${segment(productId, 'productId')}/items/${segment(itemId, 'itemId')}/file`, bytes: '*/*', options });
  }

  /**
   * PUT /products/{id}/items/{itemId}/content: the item gives buyers a link instead (a file it had
   * is removed); `notifyBuyers: true` mails the buyers who agreed to the brand's mail. Scope `products:write`.
   */
  setLink(productId: string, itemId: string, params: ItemContentParams & { notifyBuyers?: boolean }, options?: RequestOptions): Promise<Item> {
    const { notifyBuyers, ...body } = params;
    return this.#r.request({
      method: 'PUT', path: `/products/${segment(productId, 'productId')}/items/${segment(itemId, 'itemId')}/content`, query: { notifyBuyers }, body, options,
    });
  }

  /** DELETE /products/{id}/items/{itemId}/content: the item no longer has a file or link. Scope `products:write`. */
  removeContent(productId: string, itemId: string, options?: RequestOptions): Promise<Item> {
    return this.#r.request({ method: 'DELETE', path: `/products/${segment(productId, 'productId')}/items/${segment(itemId, 'itemId')}/content`, options });
  }
}

export class Products {
  readonly #r: Requester;
  readonly customers: ProductCustomers;
  readonly items: ProductItems;
  constructor(requester: Requester) {
    this.#r = requester;
    this.customers = new ProductCustomers(requester);
    this.items = new ProductItems(requester);
  }

  /** GET /products: the brand's products, newest first. Scope `products:read`. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<ProductSummary> {
    return list(this.#r, '/products', params, options);
  }

  /** GET /products/{id}: one product with its tiers, items and checkout fields. Scope `products:read`. */
  get(id: string, options?: RequestOptions): Promise<Product> {
    return this.#r.request({ method: 'GET', path: `/products/${segment(id, 'id')}`, options });
  }

  /**
   * POST /products: a product with its tiers, items and checkout fields; answers what `get` would.
   * An item may carry a `ref` that tiers' `itemIDs` point at. Scope `products:write` (the catalog
   * is shared by test and live mode, so a test key edits it too).
   */
  create(params: ProductCreateParams, options?: RequestOptions): Promise<Product> {
    return this.#r.request({ method: 'POST', path: '/products', body: params, options });
  }

  /**
   * PATCH /products/{id}: changes the fields sent. `tiers`, `items` and `checkoutFields`, when sent,
   * are the whole list: entries with an id are updated, without one added, and left-out ones
   * deleted, or archived if they were ever sold. Scope `products:write`.
   */
  update(id: string, params: ProductUpdateParams, options?: RequestOptions): Promise<Product> {
    return this.#r.request({ method: 'PATCH', path: `/products/${segment(id, 'id')}`, body: params, options });
  }

  /**
   * GET /products/{id}/availability: the open slots of a bookable (`appointment`) product, with
   * each start shown in `timezone` (docs/bookings.md). Scope `products:read`.
   */
  availability(id: string, params?: AvailabilityParams, options?: RequestOptions): Promise<ProductAvailability> {
    return this.#r.request({ method: 'GET', path: `/products/${segment(id, 'id')}/availability`, query: params, options });
  }
}
