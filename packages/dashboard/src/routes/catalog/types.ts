/** A hub with its membership tiers (`GET /api/v1/hubs/{id}`), and as `GET /api/v1/hubs` lists it (without tiers). */
export type { Hub, HubSummary } from '@creator-commerce/sdk';
