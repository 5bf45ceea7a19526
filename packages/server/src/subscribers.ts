import { subscribeToEvents } from './events/service.ts';
import { webhookFanOut } from './webhooks/fan-out.ts';
import { mailOnEvents } from './event-mail.ts';

/**
 * Who hears of events, in the transaction that records them (DESIGN.md, Events and the worker):
 * the webhook fan-out, and mail (receipts, notices, invoice numbers). Called by every
 * composition root (buildApp, workSources); safe to call more than once.
 */
export function wireEventSubscribers(): void {
  subscribeToEvents(webhookFanOut);
  subscribeToEvents(mailOnEvents);
}
