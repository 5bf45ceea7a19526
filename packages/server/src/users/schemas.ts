import { Type, type Static } from 'typebox';
import { passwordMaxLength } from './passwords.ts';
import { Mode } from '../http/shapes.ts';

/** Shapes of the dashboard's session routes (/dashboard/api, docs/dashboard.md). */

const Email = Type.String({ minLength: 1, maxLength: 254, description: 'An email address; compared without regard to case.' });
const Password = Type.String({ minLength: 1, maxLength: passwordMaxLength });
const Name = Type.String({ minLength: 1, maxLength: 200 });
export const Role = Type.Union([Type.Literal('owner'), Type.Literal('developer')]);
const Plan = Type.Union([Type.Literal('free'), Type.Literal('plus')]);

export const User = Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() });
export const BrandOfUser = Type.Object({ id: Type.String(), name: Type.String(), plan: Plan, role: Role });

export const SignUpBody = Type.Object({ name: Name, email: Email, password: Password, brandName: Name }, { additionalProperties: false });
export const SignUpResult = Type.Object({ user: User, brand: Type.Object({ id: Type.String(), name: Type.String(), plan: Plan }) });
export const SignInBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export const UserResult = Type.Object({ user: User });

export const SessionView = Type.Object({
  user: User,
  brand: BrandOfUser,
  brands: Type.Array(BrandOfUser),
  mode: Mode,
  csrfToken: Type.String(),
  emailVerified: Type.Boolean({ description: 'Whether the user confirmed their address (docs/dashboard.md, Confirming your address).' }),
});
export const EmailVerificationBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false, examples: [{ token: 'p3Xk9v2QmR7tL0wY4bN8sJ1dF6hC5gA' }] });
export const EmailVerificationSent = Type.Object({ emailedTo: Type.String() }, { examples: [{ emailedTo: 'ada@example.com' }] });
export const SessionChange = Type.Object({ brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), mode: Type.Optional(Mode) }, { additionalProperties: false });

export const PasswordChange = Type.Object({ currentPassword: Password, newPassword: Password }, { additionalProperties: false });
export const PasswordReset = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), newPassword: Password }, { additionalProperties: false });

export const TeamMember = Type.Object({ id: Type.String(), name: Type.String(), email: Type.String(), role: Role, joinedAt: Type.String() });
export const Team = Type.Object({ items: Type.Array(TeamMember) });
export const InviteBody = Type.Object({
  role: Role,
  /** Also mail the link to this address (docs/email.md); without it the link is only answered. */
  email: Type.Optional(Email),
}, { additionalProperties: false });
export const InviteLink = Type.Object({ link: Type.String(), role: Role, expiresAt: Type.String(), emailedTo: Type.Optional(Type.String()) });
/** "Forgot your password?": mails a reset link when an account has this address. */
export const PasswordResetRequest = Type.Object({ email: Email }, { additionalProperties: false });
/**
 * Signed in: `{ token }` joins as the current user. Signed out: `{ token, email, password }` of an
 * existing account, or `{ token, name, email, password }` for a new one.
 */
export const InviteAccept = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
  name: Type.Optional(Name),
  email: Type.Optional(Email),
  password: Type.Optional(Password),
}, { additionalProperties: false });
export const Done = Type.Object({ ok: Type.Boolean() });

export type SessionViewT = Static<typeof SessionView>;
