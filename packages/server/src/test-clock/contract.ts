/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** GET /test-clock */
export const getTestClock: Operation = { id: 'getTestClock', sdk: 'const { now } = await client.testClock.get();', errors: [404] };

/** POST /test-clock/advance */
export const advanceTestClock: Operation = {
  id: 'advanceTestClock',
  sdk: "const { now, jobsRun } = await client.testClock.advance({ by: '31d' });",
  body: { by: '31d' },
  errors: [404]
};

/** GET /test/clock: the test clock beside the other test helpers. */
export const readTestHelperClock: Operation = { id: 'readTestHelperClock', sdk: 'const { now } = await client.testHelpers.clock();', errors: [404] };

/** POST /test/clock/advance */
export const advanceTestHelperClock: Operation = {
  id: 'advanceTestHelperClock',
  sdk: "const { now, jobsRun } = await client.testHelpers.advanceClock({ by: '31d' });",
  body: { by: '31d' },
  errors: [404]
};
