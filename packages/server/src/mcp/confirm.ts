import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type AuthInfo, type ClientCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import type { App } from '../http/app-type.ts';

/**
 * The refund tool's confirmation (docs/refunds.md, MCP): a client that supports elicitation is
 * asked, in words that name the amount and the buyer, before any money moves; the refund then runs
 * with that exact amount. A client without elicitation keeps the plain tool (its description tells
 * the assistant to confirm with the user itself).
 *
 * The question rides the 2026-07-28 revision's multi-round-trip flow (`input_required`: the client
 * asks its user and retries the call with the answer), whose requests carry the client's
 * capabilities. A 2025-era client is not asked: our endpoint is stateless (any process answers any
 * request), so it neither knows what that client declared at `initialize` nor can route a
 * server→client request back to it; it keeps the plain tool. The amount is worked out afresh on each round, and
 * the refund runs only when it is still the amount the user was asked about (`requestState` echoes
 * it back, but is compared with our own answer, never trusted).
 */

export type Confirmation =
  | { kind: 'proceed'; amount: number }
  | { kind: 'skip' }
  | { kind: 'answer'; result: unknown };

const key = 'confirm_refund';

function capabilitiesOf(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/** What the refund would give back now: the amount asked for, or all that is left; with the buyer and currency for the question. */
async function whatWouldBeRefunded(app: App, authInfo: AuthInfo, txref: string, amount: unknown) {
  const res = await app.inject({ method: 'GET', url: `/api/v1/transactions/${encodeURIComponent(txref)}`, headers: { authorization: `Bearer ${authInfo.token}` } });
  if (res.statusCode !== 200) return undefined; // the route answers the error itself when the refund runs
  const t = (JSON.parse(res.body) as { data: { amount: number; currency: string; refundedAmount: number; refunds: { amount: number; status: string }[]; customer: { name: string; email: string } } }).data;
  const pending = t.refunds.filter((r) => r.status === 'pending').reduce((sum, r) => sum + r.amount, 0);
  const left = Math.round((t.amount - t.refundedAmount - pending) * 1e6) / 1e6;
  return { amount: typeof amount === 'number' ? amount : left, left, currency: t.currency, customer: t.customer };
}

export async function confirmRefund(app: App, authInfo: AuthInfo, ctx: ServerContext, args: Record<string, unknown>): Promise<Confirmation> {
  if (!capabilitiesOf(ctx)?.elicitation) return { kind: 'skip' };
  const txref = String(args.id ?? '');
  const now = await whatWouldBeRefunded(app, authInfo, txref, args.amount);
  if (!now || now.amount <= 0 || now.amount > now.left) return { kind: 'skip' }; // refused by the route, with its own words
  const ends = typeof args.revokeAccess === 'boolean' ? args.revokeAccess : now.amount === now.left;
  const message = `Refund ${now.amount.toFixed(2)} ${now.currency} to ${now.customer.name} (${now.customer.email}) on ${txref}? `
    + `The money goes back to the buyer and this cannot be undone${ends ? '; the access the payment bought ends' : ''}.`;
  const requestedSchema = {
    type: 'object' as const,
    properties: { confirm: { type: 'boolean' as const, title: `Refund ${now.amount.toFixed(2)} ${now.currency}`, description: message } },
    required: ['confirm'],
  };
  const asked = String(now.amount);
  // An error result: the tool did not do what it was called for (and has no Transaction to return).
  const declined = { kind: 'answer' as const, result: { isError: true, content: [{ type: 'text' as const, text: `Not refunded: the user did not confirm the refund of ${now.amount.toFixed(2)} ${now.currency}. Nothing was given back.` }] } };

  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  // An answer about another amount (something changed between the rounds) is asked again.
  if (answer.kind === 'elicit' && ctx.mcpReq.requestState<string>() === asked) {
    if (answer.action === 'accept' && answer.content?.confirm === true) return { kind: 'proceed', amount: now.amount };
    return declined;
  }
  return { kind: 'answer', result: inputRequired({ inputRequests: { [key]: inputRequired.elicit({ message, requestedSchema }) }, requestState: asked }) };
}
