import { subscribeToEvents } from './events/service.ts';
import { webhookFanOut } from './webhooks/fan-out.ts';

/**
 * Who hears of events, in the transaction that records them (DESIGN.md, Events and the worker):
 * today the webhook fan-out. Called by every composition root (buildApp, workSources); safe to
 * call more than once.
 */
export function wireEventSubscribers(): void {
  subscribeToEvents(webhookFanOut);
}
