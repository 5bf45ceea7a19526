import { newId } from '../packages/server/src/ids.ts';

/** The data of every event the webhook bench records (and of every body its ceiling POSTs). */
export function benchEventData() {
  const at = new Date().toISOString();
  return { membershipId: newId('mem'), name: 'Bench', email: 'bench@example.com', status: 'active', joinedAt: at, version: 1, updatedAt: at };
}
