import { Type } from 'typebox';
import { buyerKinds, mailKindNames } from './kinds.ts';
import { OneOf } from '../http/shapes.ts';

const status = Type.Union([Type.Literal('queued'), Type.Literal('sending'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('unsent')], {
  description: '`queued` (waiting for a first try or a retry), `sending`, `sent`, `failed` (refused for good or out of tries) or '
    + '`unsent` (no mail server is configured: kept so you can see what would have gone out).',
});

export const EmailSummary = Type.Object({
  id: Type.String({ description: '`msg_…`' }),
  kind: OneOf(mailKindNames, { description: `What the mail is: ${mailKindNames.map((k) => `\`${k}\``).join(', ')}.` }),
  class: Type.Union([Type.Literal('transactional'), Type.Literal('marketing')]),
  to: Type.String(),
  subject: Type.String(),
  status,
  statusDetail: Type.Optional(Type.String({ description: 'Why it stands where it does: the SMTP server\'s answer, or "not sent: no mail server".' })),
  attempts: Type.Integer({ minimum: 0 }),
  mode: Type.Optional(Type.Union([Type.Literal('test'), Type.Literal('live')], { description: 'The mode of what caused it (absent only in the operator\'s CLI view of account mail).' })),
  createdAt: Type.String({ format: 'date-time' }),
  sentAt: Type.Optional(Type.String({ format: 'date-time' })),
  nextAttemptAt: Type.Optional(Type.String({ format: 'date-time', description: 'When a queued message is tried next.' })),
}, { $id: 'EmailSummary' });

export const Email = Type.Object({
  ...EmailSummary.properties,
  html: Type.String({ description: 'The HTML part as sent (or as it would be sent).' }),
  text: Type.String({ description: 'The plain-text part.' }),
  headers: Type.Record(Type.String(), Type.String(), { description: 'From, To, Reply-To, Subject and Message-ID.' }),
  log: Type.Array(Type.Object({
    attempt: Type.Integer({ minimum: 1 }),
    outcome: Type.Union([Type.Literal('sent'), Type.Literal('failed'), Type.Literal('bounced'), Type.Literal('unsent')]),
    response: Type.Optional(Type.String({ description: 'The SMTP server\'s answer.' })),
    at: Type.String({ format: 'date-time' }),
  }), { description: 'Every try, oldest first.' }),
}, { $id: 'Email' });

export const EmailListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  kind: Type.Optional(Type.Union(mailKindNames.map((k) => Type.Literal(k)), { description: 'Only this kind.' })),
  status: Type.Optional(status),
  to: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'Only mail to this address (ignoring case).' })),
});

const colour = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'A hex colour such as #2b59c3: the mail\'s header and buttons.' });

export const BuyerEmails = Type.Object(
  Object.fromEntries(buyerKinds.map((k) => [k, Type.Optional(Type.Boolean())])),
  { additionalProperties: false, description: `Which mail the brand's buyers get, per kind (${buyerKinds.join(', ')}); all on by default.` },
);

export const EmailSettings = Type.Object({
  fromName: Type.Union([Type.String(), Type.Null()], { description: 'The sender name; null means the brand\'s name.' }),
  effectiveFromName: Type.String(),
  replyTo: Type.Union([Type.String(), Type.Null()], { description: 'Where buyers\' replies go (your support address); null: no Reply-To.' }),
  brandColour: colour,
  buyerEmails: Type.Record(Type.String(), Type.Boolean()),
  checkoutEmailVerification: Type.Boolean({ description: 'Our addition: the hosted checkout asks the buyer for a 6-digit code mailed to them before paying (not for links made with `checkoutOtpVerificationSkipped: true`). Off by default.' }),
  brandID: Type.String(),
}, { $id: 'EmailSettings' });

export const EmailSettingsChange = Type.Object({
  fromName: Type.Optional(Type.Union([Type.String({ maxLength: 100, pattern: '^[^\\r\\n"<>]*$' }), Type.Null()])),
  replyTo: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 320 }), Type.Null()])),
  brandColour: Type.Optional(Type.Union([colour, Type.Null()])),
  buyerEmails: Type.Optional(BuyerEmails),
  checkoutEmailVerification: Type.Optional(Type.Boolean({ description: 'Ask buyers for a code mailed to them before they pay (docs/checkout.md, Email verification).' })),
}, { additionalProperties: false, examples: [{ replyTo: 'help@brush.example', checkoutEmailVerification: true }] });
