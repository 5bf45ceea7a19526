import { Type, type Static } from 'typebox';

export const CustomerSessionBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254, description: 'The buyer\'s email address, as on their purchases.' }),
  returnUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'Where the portal\'s "Back to …" link leads (your site). An absolute http(s) URL.' })),
  deepLink: Type.Optional(Type.String({ maxLength: 200, description: 'What the portal opens on: a subscription or membership id, a txref, or an item id of this buyer\'s.' })),
}, {
  additionalProperties: false,
  $id: 'CustomerSessionBody',
  examples: [{ email: 'ada@example.com', returnUrl: 'https://inkwell.example.com/account', deepLink: 'sub_3kL9mN2bV5cX8zA1sD4f' }],
});

export const CustomerSession = Type.Object({
  url: Type.String({ description: 'The one-time sign-in URL to send the buyer to. It works once, for 15 minutes.' }),
  email: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
  deepLink: Type.Optional(Type.String()),
  returnUrl: Type.Optional(Type.String()),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: 'The key\'s mode: the portal shows the buyer\'s purchases in it.' }),
}, {
  $id: 'CustomerSession',
  examples: [{
    url: 'https://pay.example.com/portal/inkwell/enter?token=q8W3xK2v…', email: 'ada@example.com', expiresAt: '2026-11-25T14:18:00.000Z',
    deepLink: 'sub_3kL9mN2bV5cX8zA1sD4f', returnUrl: 'https://inkwell.example.com/account', mode: 'live',
  }],
});

export type CustomerSessionBody = Static<typeof CustomerSessionBody>;
