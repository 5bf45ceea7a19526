import { openPostgres } from '../packages/server/src/db/client.ts';
import { claimDue } from '../packages/server/src/webhooks/claim.ts';
const db = openPostgres('postgres://postgres@127.0.0.1:5499/bench', { searchPath: 'q', max: 1 });
const brands = (await db.query<{ brand_id: string; id: string }>('SELECT brand_id, id FROM webhook_endpoints')).map((r) => r);
for (let i = 0; i < 30; i++) {
  const b = brands[i % brands.length];
  const got = await claimDue(db, 32, 1, `c:${i}`, { heldByEndpoint: new Map([[b.id, 8]]), heldByBrand: new Map([[b.brand_id, 8]]), perEndpoint: 16, perBrand: 32 }, [b.brand_id], new Date(Date.now() - 30 * 86400000));
  if (i < 3) console.log('claimed', got.length);
}
console.log(await db.query("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements"));
await db.close();
