export { Payout } from '../events/payloads.ts';
