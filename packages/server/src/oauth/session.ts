import type { FastifyRequest } from 'fastify';

/** The signed-in creator, as the consent screen needs them (users/session.ts's SessionInfo has more). */
export interface ConsentSession {
  userId: string;
  brandId: string;
  csrfToken: string;
}

/** How the consent screen finds the dashboard session and sends a creator to sign in first. */
export interface SessionReader {
  read(req: FastifyRequest): Promise<ConsentSession | null>;
  signInUrl(returnTo: string): string;
}
