import { Type } from 'typebox';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ok } from '../http/envelope.ts';
import { writeFlow } from '../http/idempotency.ts';
import { advanceClock, clockNow } from './flows.ts';
import * as contract from './contract.ts';

const ClockNow = Type.Object({ now: Type.String({ format: 'date-time', description: 'The brand\'s test-mode time.' }) }, { $id: 'TestClock' });

/** Test clocks (docs/subscriptions.md, "Test clocks"): any valid test key; a live key gets 404. */
export function clockRoutes(app: App, { db, config }: { db: Db; config: Config }) {
  app.get('/test-clock', {
    schema: {
      summary: 'Read the test clock',
      description: 'Our addition. The brand\'s test-mode time: real time plus however far the clock has been advanced. Test keys only (a live key gets 404).',
      tags: ['Test clock'],
      response: { 200: Envelope(ClockNow) },
    },
    config: { operation: contract.getTestClock, auth: { scope: null } },
  }, async (req) => ok('Test clock read', await clockNow(db, principalOf(req))));

  app.post('/test-clock/advance', {
    schema: {
      summary: 'Advance the test clock',
      description: 'Our addition. Moves the brand\'s test-mode time forward, `by` a duration ("31d", "12h", "2w") or `to` an ISO 8601 time, '
        + 'and runs every job that falls due meanwhile (renewals, retries, ends of access, payout runs) in time order before answering. '
        + 'No other brand and never live mode is moved. Test keys only (a live key gets 404).',
      tags: ['Test clock'],
      body: Type.Object({
        by: Type.Optional(Type.String({ maxLength: 20, description: 'e.g. `31d`, `12h`, `90m`, `2w`.' })),
        to: Type.Optional(Type.String({ maxLength: 40, description: 'An ISO 8601 time, not before the clock\'s time.' })),
      }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ now: Type.String({ format: 'date-time' }), jobsRun: Type.Integer({ minimum: 0 }) })) },
    },
    config: { operation: contract.advanceTestClock, auth: { scope: null } },
  }, async (req, reply) => writeFlow(db, req, reply, () => advanceClock(db, config, principalOf(req), req.body), 'Test clock advanced'));
}
