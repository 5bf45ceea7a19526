import type { paths } from '@creator-commerce/sdk';

// The hub shapes, read from the SDK's generated types by path (the OpenAPI document names no
// Hub schema of its own yet), so a change to the server's schema reaches these pages.
type Data<T> = T extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

/** A hub as `GET /api/v1/hubs/{id}` answers it: its name, description and membership tiers. */
export type Hub = Data<paths['/hubs/{id}']['get']>;
/** A hub in `GET /api/v1/hubs`: without its tiers. */
export type HubSummary = Data<paths['/hubs']['get']>['items'][number];
