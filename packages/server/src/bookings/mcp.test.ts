import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startOAuthServer, type OAuthTestServer } from '../testing/oauth.ts';
import { connectAssistant } from '../testing/mcp-assistant.ts';
import { seedBooking } from '../testing/bookings.ts';

/**
 * The bookings MCP tools (docs/bookings.md), through the full OAuth flow as an assistant
 * connects: open slots and bookings to read, cancel offered only with customers:write and
 * marked destructive, each running its real route.
 */
let s: OAuthTestServer;
before(async () => { s = await startOAuthServer(); });
after(async () => { await s.close(); });

describe('the bookings MCP tools', () => {
  it('lists slots and bookings, and cancels a booking through the route, with customers:write only', async () => {
    const { cookie, brandId } = await s.signUp('plus');
    const seeded = await seedBooking(s.db, brandId, 'test');

    const reader = await connectAssistant(s, cookie, { name: 'Booking Assistant', scopes: ['products:read', 'customers:read'] });
    const names = (await reader.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('get_product_availability') && names.includes('list_bookings') && names.includes('get_booking'));
    assert.ok(!names.includes('cancel_booking') && !names.includes('reschedule_booking'), 'no writes without customers:write');
    const from = new Date(seeded.start.getTime() - 3_600_000).toISOString();
    const to = new Date(seeded.start.getTime() + 2 * 3_600_000).toISOString();
    const open = await reader.callTool({ name: 'get_product_availability', arguments: { id: seeded.productId, from, to, timezone: 'Asia/Tokyo' } });
    const slots = (open.structuredContent as { slots: { startsAt: string; localStart: string }[] }).slots;
    assert.deepEqual(slots.map((x) => x.startsAt), [from, new Date(seeded.start.getTime() + 3_600_000).toISOString()], 'the booked hour is not offered');
    assert.match(slots[0].localStart, /\+09:00$/);
    const listed = await reader.callTool({ name: 'list_bookings', arguments: {} });
    assert.deepEqual((listed.structuredContent as { items: { id: string }[] }).items.map((b) => b.id), [seeded.id]);
    await reader.close();

    const client = await connectAssistant(s, cookie, { name: 'Booking Assistant', scopes: ['products:read', 'customers:read', 'customers:write'] });
    const tool = (await client.listTools()).tools.find((t) => t.name === 'cancel_booking')!;
    assert.equal(tool.annotations?.destructiveHint, true);
    const cancelled = await client.callTool({ name: 'cancel_booking', arguments: { id: seeded.id, reason: 'Coach is ill' } });
    assert.equal((cancelled.structuredContent as { status: string }).status, 'cancelled');
    const again = await client.callTool({ name: 'cancel_booking', arguments: { id: seeded.id } });
    assert.equal(again.isError, true);
    assert.match((again.content as { text: string }[])[0].text, /cancelled already/);
    const [event] = await s.db.query<{ app_id: string | null }>(`SELECT app_id FROM events WHERE brand_id = $1 AND type = 'booking.cancelled'`, [brandId]);
    assert.ok(event.app_id, 'booking.cancelled names the app that asked');
    await client.close();
  });
});
