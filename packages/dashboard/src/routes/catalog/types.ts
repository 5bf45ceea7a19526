import type { Tier } from '@creator-commerce/sdk';

/** A hub as `GET /api/v1/hubs/{id}` answers it: its name, description and membership tiers. */
export interface Hub {
  id: string;
  name: string;
  description?: string;
  tiers: Tier[];
  createdAt?: string;
  updatedAt?: string;
}
