import { claimDue } from '../packages/server/src/webhooks/claim.ts';
const seen: string[] = [];
const fake = { query: async (text: string, params: unknown[], name?: string) => { seen.push(`-- ${name}\n${text}\n-- params ${JSON.stringify(params)}`); return text.includes('webhook_pick_due_brands') || name === 'webhook_pick_due_brands' ? [] : []; } };
await claimDue(fake as never, 32, 60000, 'c:1', { heldByEndpoint: new Map([['we_XQAIRdw-Rj-3neGKrUYX', 8]]), heldByBrand: new Map([[process.argv[2], 8]]), perEndpoint: 16, perBrand: 32 }, [process.argv[2]], new Date(Date.now() - 30 * 86400000));
console.log(seen.join('\n\n'));
