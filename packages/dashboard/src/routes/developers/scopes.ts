/**
 * Every scope a key can hold, with the sentence the key form shows beside its checkbox. The
 * server's list is `auth/principal.ts`'s `scopes`; `products:write` is the catalog writes'
 * scope (POST/PATCH /products and /hubs).
 */
export const scopeSentences: { scope: string; sentence: string }[] = [
  { scope: 'products:read', sentence: 'Read products, hubs, their tiers and content.' },
  { scope: 'products:write', sentence: 'Create and edit products and hubs, with their tiers, content and checkout fields.' },
  { scope: 'customers:read', sentence: "Read hub members and a product's customers." },
  { scope: 'customers:write', sentence: 'Import, remove and cancel members and customers.' },
  { scope: 'checkout:write', sentence: 'Create payment links and verify payments.' },
  { scope: 'transactions:read', sentence: 'Read transactions and payouts.' },
  { scope: 'transactions:write', sentence: 'Refund transactions: give money back to buyers (a full refund ends the access it bought).' },
  { scope: 'webhooks:write', sentence: 'Manage webhook endpoints, read events and deliveries, resend and send test events.' },
];
