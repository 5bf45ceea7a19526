import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../deps.ts';
import { AppError, notFound } from '../errors.ts';
import type { App } from '../http/app-type.ts';
import { Envelope, ok } from '../http/envelope.ts';
import {
  Done, EmailVerificationBody, EmailVerificationSent, InviteAccept, InviteBody, InviteLink, PasswordChange, PasswordReset, PasswordResetRequest, SessionChange, SessionView,
  SignInBody, SignUpBody, SignUpResult, Team, UserResult,
} from './schemas.ts';
import * as service from './service.ts';
import { acceptInvite } from './flows.ts';
import { clearSessionCookie, forgetSession, readSession, setSessionCookie, startSession, type SessionInfo } from './session.ts';
import { deleteUserSessions } from './sessions-repository.ts';
import { mailEmailVerification, mailInvite, mailPasswordReset } from './account-mail.ts';

/**
 * The dashboard's session routes under /dashboard/api (docs/dashboard.md): JSON in the standard
 * envelope, for the SPA only. They are not part of the public API (hidden from the OpenAPI
 * document). CSRF is checked app-wide (users/csrf.ts); routes that work signed out check the
 * Origin only.
 */
const hidden = { hide: true };
const signedOut = { csrf: 'origin' as const };

export function dashboardAccountRoutes(app: App, deps: Pick<Deps, 'db' | 'config'>) {
  const { db } = deps;
  const publicUrl = deps.config.publicUrl;

  // Answers carry the CSRF token and personal data: never kept by a browser or proxy cache.
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  const requireSession = async (req: FastifyRequest): Promise<SessionInfo> => {
    const session = await readSession(db, req);
    if (!session) throw new AppError('authentication_required', 'Sign in to the dashboard first.');
    return session;
  };
  const retryAfter = (reply: FastifyReply) => (seconds: number) => { reply.header('retry-after', String(seconds)); };
  const signInAs = async (reply: FastifyReply, userId: string, brandId: string) => {
    const { token } = await startSession(db, { userId, brandId });
    setSessionCookie(reply, token, publicUrl);
  };

  app.post('/signup', {
    schema: { ...hidden, body: SignUpBody, response: { 201: Envelope(SignUpResult) } },
    config: signedOut,
  }, async (req, reply) => {
    const result = await db.transaction(async (tx) => {
      const made = await service.signUp(tx, req.body);
      await mailEmailVerification(tx, publicUrl, made.user.id);
      const { token } = await startSession(tx, { userId: made.user.id, brandId: made.brand.id });
      return { ...made, token };
    });
    setSessionCookie(reply, result.token, publicUrl);
    reply.code(201);
    return ok('Account created; you are signed in', { user: result.user, brand: result.brand });
  });

  app.post('/signin', {
    schema: { ...hidden, body: SignInBody, response: { 200: Envelope(UserResult) } },
    config: signedOut,
  }, async (req, reply) => {
    const { user, brandId } = await service.signIn(db, { ...req.body, address: req.ip }, retryAfter(reply));
    await signInAs(reply, user.id, brandId);
    return ok('Signed in', { user });
  });

  app.post('/signout', {
    schema: { ...hidden, response: { 200: Envelope(Done) } },
  }, async (req, reply) => {
    const session = await readSession(db, req);
    // Signing out ends every session of the user, on every device and process.
    if (session) await deleteUserSessions(db, session.userId);
    clearSessionCookie(reply, publicUrl);
    return ok('Signed out', { ok: true });
  });

  app.get('/session', {
    schema: { ...hidden, response: { 200: Envelope(SessionView) } },
  }, async (req) => ok('Session retrieved', await service.sessionView(db, await requireSession(req))));

  app.patch('/session', {
    schema: { ...hidden, body: SessionChange, response: { 200: Envelope(SessionView) } },
  }, async (req) => {
    const session = await requireSession(req);
    await db.transaction((tx) => service.switchSession(tx, session, req.body));
    forgetSession(req);
    return ok('Session updated', await service.sessionView(db, await requireSession(req)));
  });

  app.post('/password', {
    schema: { ...hidden, body: PasswordChange, response: { 200: Envelope(UserResult) } },
  }, async (req) => {
    const session = await requireSession(req);
    await db.transaction((tx) => service.changePassword(tx, session, req.body));
    return ok('Password changed; your other sessions have ended', { user: { id: session.userId, name: session.name, email: session.email } });
  });

  app.post('/password-reset', {
    schema: { ...hidden, body: PasswordReset, response: { 200: Envelope(UserResult) } },
    config: signedOut,
  }, async (req, reply) => {
    const { user, brandId } = await db.transaction((tx) => service.resetPassword(tx, req.body));
    if (brandId) await signInAs(reply, user.id, brandId);
    return ok('Password set; you are signed in', { user });
  });

  // Answers the same whether or not an account has the address, so it tells no one who has one.
  app.post('/password-reset/request', {
    schema: { ...hidden, body: PasswordResetRequest, response: { 200: Envelope(Done) } },
    config: signedOut,
  }, async (req) => {
    await db.transaction((tx) => mailPasswordReset(tx, publicUrl, req.body.email));
    return ok('If an account has that address, a link to set a new password is on its way', { ok: true });
  });

  // The link mailed on sign-up: works signed out (the token is the proof), on any device.
  app.post('/email-verification', {
    schema: { ...hidden, body: EmailVerificationBody, response: { 200: Envelope(UserResult) } },
    config: signedOut,
  }, async (req) => {
    const user = await db.transaction((tx) => service.verifyEmail(tx, req.body.token));
    return ok(`Thank you: ${user.email} is confirmed`, { user });
  });

  app.post('/email-verification/resend', {
    schema: { ...hidden, response: { 200: Envelope(EmailVerificationSent) } },
  }, async (req) => {
    const session = await requireSession(req);
    const sent = await db.transaction((tx) => mailEmailVerification(tx, publicUrl, session.userId));
    return ok(`A new confirmation link is on its way to ${sent.emailedTo}`, sent);
  });

  app.get('/team', {
    schema: { ...hidden, response: { 200: Envelope(Team) } },
  }, async (req) => ok('Team retrieved', await service.listTeam(db, await requireSession(req))));

  app.post('/invites', {
    schema: { ...hidden, body: InviteBody, response: { 200: Envelope(InviteLink) } },
  }, async (req) => {
    const session = await requireSession(req);
    const { email } = req.body;
    const invite = await db.transaction(async (tx) => {
      // Mail to someone else waits until the sender has shown the address they signed up with is theirs.
      if (email) await service.requireVerifiedEmail(tx, session, 'invite someone by mail (or leave out the address and share the link yourself)');
      const made = await service.createInvite(tx, publicUrl, session, req.body.role);
      if (!email) return made;
      await mailInvite(tx, { brandId: session.brandId, inviterName: session.name, to: email, invite: made });
      return { ...made, emailedTo: email };
    });
    return ok(email ? `Invite link created and mailed to ${email}; it works once, for 7 days` : 'Invite link created; it works once, for 7 days', invite);
  });

  app.post('/invites/accept', {
    schema: { ...hidden, body: InviteAccept, response: { 200: Envelope(SignUpResult) } },
    config: signedOut,
  }, async (req, reply) => {
    const session = await readSession(db, req);
    const joined = await acceptInvite(db, session, { ...req.body, address: req.ip }, retryAfter(reply));
    if (session) {
      await db.transaction((tx) => service.switchSession(tx, session, { brandId: joined.brand.id }));
    } else {
      await signInAs(reply, joined.user.id, joined.brand.id);
    }
    return ok(`You joined ${joined.brand.name}`, { user: joined.user, brand: { id: joined.brand.id, name: joined.brand.name, plan: joined.brand.plan } });
  });

  app.delete('/team/:userId', {
    schema: { ...hidden, params: Type.Object({ userId: Type.String() }), response: { 200: Envelope(Done) } },
  }, async (req) => {
    const session = await requireSession(req);
    if (!/^usr_[A-Za-z0-9_-]{1,100}$/.test(req.params.userId)) throw notFound('team member');
    await db.transaction((tx) => service.removeMember(tx, session, req.params.userId));
    return ok('Member removed', { ok: true });
  });
}
