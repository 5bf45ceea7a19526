import type { Db } from '../db/client.ts';
import type { SessionReader } from './session.ts';

/**
 * The dashboard's sessions as the consent screen reads them. Until users/session.ts (the
 * accounts work) is merged, nobody is signed in and the creator is sent to the sign-in page.
 */
export function dashboardSessions(_db: Db): SessionReader {
  return {
    read: async () => null,
    signInUrl: (returnTo) => `/dashboard/sign-in?returnTo=${encodeURIComponent(returnTo)}`,
  };
}
