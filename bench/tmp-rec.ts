import { openPostgres } from '../packages/server/src/db/client.ts';
import { claimDue, recordAttempts } from '../packages/server/src/webhooks/claim.ts';
import { queueStatements } from '../packages/server/src/webhooks/queue-plans.ts';
const raw = openPostgres('postgres://postgres@127.0.0.1:5499/bench', { searchPath: 'q', max: 1 });
const db = process.env.PLAIN ? raw : queueStatements(raw);
const [{ brand_id }] = await raw.query<{ brand_id: string }>('SELECT brand_id FROM webhook_queue GROUP BY brand_id ORDER BY count(*) DESC LIMIT 1');
const caps = { heldByEndpoint: new Map(), heldByBrand: new Map(), perEndpoint: 1000, perBrand: 1000 };
for (const batch of (process.env.BATCHES ?? '1,4,16,64').split(',').map(Number)) {
  let claimMs = 0, recMs = 0, n = 0;
  for (let i = 0; i < 12; i++) {
    let t = performance.now();
    const got = await claimDue(db, batch, 60000, `t:${batch}:${i}`, caps, [brand_id]);
    if (i >= 2) claimMs += performance.now() - t;
    t = performance.now();
    await recordAttempts(db, got.map((d) => ({ delivery: d, attempt: { attemptedAt: new Date(), durationMs: 1, responseCode: 200, error: null, responseBody: 'ok' },
      outcome: { status: 'succeeded' as const, nextAttemptAt: null, failureReason: null, disableReason: null, failingCutoff: new Date(0) } })));
    if (i >= 2) { recMs += performance.now() - t; n += got.length; }
  }
  console.log(`batch ${batch}: claim ${(claimMs / 10).toFixed(2)} ms, record ${(recMs / 10).toFixed(2)} ms, per delivery ${(1000 * (claimMs + recMs) / n).toFixed(0)} µs (${n})`);
}
await raw.close();
