import pino from 'pino';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { openPostgres } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { ensureLogPartitions } from '../packages/server/src/db/partitions.ts';
import { recordEvent } from '../packages/server/src/events/service.ts';
import { createEndpoint } from '../packages/server/src/webhooks/service.ts';
import { wireEventSubscribers } from '../packages/server/src/subscribers.ts';
import { benchEventData } from './webhook-event.ts';
wireEventSubscribers();
const url = 'postgres://postgres@127.0.0.1:5499/bench';
const admin = openPostgres(url, { max: 1 });
await admin.query('DROP SCHEMA IF EXISTS q CASCADE'); await admin.query('CREATE SCHEMA q');
const db = openPostgres(url, { searchPath: 'q' });
await migrate(db);
await ensureLogPartitions(db, new Date(Date.now() - 32 * 86_400_000), new Date(Date.now() + 2 * 86_400_000));
const config = loadConfig({ WEBHOOK_SECRET_KEY: 'ab'.repeat(32) } as never);
const ids: string[] = [];
for (let i = 0; i < 10; i++) {
  const brand = await createBrand(db, { name: `B ${i}` });
  ids.push(brand.id);
  const principal = { brandId: brand.id, mode: 'test' as const, scopes: ['webhooks:write' as const], via: 'api_key' as const, keyId: 'b' };
  await createEndpoint(db, principal, { url: `http://127.0.0.1:9/${i}`, events: ['member.joined'] }, { key: config.webhooks.secretKey!, allowLoopback: true });
}
for (let s = 0; s < 20000; s += 100) await db.transaction(async (tx) => {
  for (let i = 0; i < 100; i++) await recordEvent(tx, { brandId: ids[(s + i) % 10], mode: 'test', type: 'member.joined', data: benchEventData() });
});
console.log(ids.join(' '));
await db.close(); await admin.close();
void pino;
