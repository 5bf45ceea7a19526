import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { readSession, signInUrl, type SessionInfo } from '../users/session.ts';

/** How the consent screen and the apps routes find the dashboard session and send a creator to sign in first. */
export interface SessionReader {
  read(req: FastifyRequest): Promise<SessionInfo | null>;
  signInUrl(returnTo: string): string;
}

export const dashboardSessions = (db: Db): SessionReader => ({ read: (req) => readSession(db, req), signInUrl });
