import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ok } from '../http/envelope.ts';
import { writeFlow } from '../http/idempotency.ts';
import { advanceClock, clockNow } from './flows.ts';
import * as contract from './contract.ts';

const ClockNow = Type.Object({ now: Type.String({ format: 'date-time', description: 'The brand\'s test-mode time.' }) }, { $id: 'TestClock' });

const AdvanceBody = Type.Object({
  by: Type.Optional(Type.String({ maxLength: 20, description: 'e.g. `31d`, `12h`, `90m`, `2w`.' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'An ISO 8601 time, not before the clock\'s time.' })),
}, { additionalProperties: false });
const Advanced = Type.Object({ now: Type.String({ format: 'date-time' }), jobsRun: Type.Integer({ minimum: 0 }) });

const readDescription = 'The brand\'s test-mode time: real time plus however far the clock has been advanced. Test keys only (a live key gets 404).';
const advanceDescription = 'Moves the brand\'s test-mode time forward, `by` a duration ("31d", "12h", "2w") or `to` an ISO 8601 time, '
  + 'and runs every job that falls due meanwhile (renewals, retries, ends of access, payout runs) in time order before answering. '
  + 'No other brand and never live mode is moved. Test keys only (a live key gets 404).';

/**
 * Test clocks (docs/subscriptions.md, "Test clocks"): any valid test key; a live key gets 404.
 * Served under /test/clock beside the other test helpers (the SDK's `testHelpers`), and under
 * /test-clock, where they were first published, for callers written against that.
 */
export function clockRoutes(app: App, { db, config }: { db: Db; config: Config }) {
  const read = async (req: FastifyRequest) => ok('Test clock read', await clockNow(db, principalOf(req)));
  app.get('/test/clock', {
    schema: { summary: 'Read the test clock', description: `Our addition. ${readDescription}`, tags: ['Test helpers'], response: { 200: Envelope(ClockNow) } },
    config: { operation: contract.readTestHelperClock, auth: { scope: null } },
  }, read);
  app.post('/test/clock/advance', {
    schema: { summary: 'Advance the test clock', description: `Our addition. ${advanceDescription}`, tags: ['Test helpers'], body: AdvanceBody, response: { 200: Envelope(Advanced) } },
    config: { operation: contract.advanceTestHelperClock, auth: { scope: null } },
  }, async (req, reply) => writeFlow(db, req, reply, () => advanceClock(db, config, principalOf(req), req.body), 'Test clock advanced'));

  app.get('/test-clock', {
    schema: {
      summary: 'Read the test clock (first path)',
      description: `Our addition; the same as GET /test/clock, kept at the path it was first published under. ${readDescription}`,
      tags: ['Test clock'],
      response: { 200: Envelope(ClockNow) },
    },
    config: { operation: contract.getTestClock, auth: { scope: null } },
  }, read);

  app.post('/test-clock/advance', {
    schema: {
      summary: 'Advance the test clock (first path)',
      description: `Our addition; the same as POST /test/clock/advance, kept at the path it was first published under. ${advanceDescription}`,
      tags: ['Test clock'],
      body: AdvanceBody,
      response: { 200: Envelope(Advanced) },
    },
    config: { operation: contract.advanceTestClock, auth: { scope: null } },
  }, async (req, reply) => writeFlow(db, req, reply, () => advanceClock(db, config, principalOf(req), req.body), 'Test clock advanced'));
}
