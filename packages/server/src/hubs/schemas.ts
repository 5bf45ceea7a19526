import { Type, type Static } from 'typebox';
import { hubFields } from '../catalog/fields.ts';
import { Tier, TierInput } from '../products/schemas.ts';
import { Timestamp } from '../http/shapes.ts';


// Our addition: the reference lists a hub's members but not the hub itself. A hub is a
// membership community; its tiers are its plans (docs/catalog.md).
const hubSummaryFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const HubSummary = Type.Object(hubSummaryFields, { $id: 'HubSummary' });

export const Hub = Type.Object({
  ...hubSummaryFields,
  tiers: Type.Array(Tier, { description: 'The hub\'s membership plans, archived ones included.' }),
}, { $id: 'Hub' });

const tiers = Type.Array(TierInput, {
  minItems: 1,
  description: 'The whole list, in order. An entry with an id updates that tier; one without adds a tier; a tier left out is deleted, or archived if anyone ever joined on it.',
});

export const HubCreateBody = Type.Object({ ...hubFields, tiers }, { additionalProperties: false, $id: 'HubCreateBody' });

export const HubUpdateBody = Type.Object({
  name: Type.Optional(hubFields.name),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'null or "" clears it.' })),
  tiers: Type.Optional(tiers),
}, { additionalProperties: false, $id: 'HubUpdateBody' });

export type HubSummary = Static<typeof HubSummary>;
export type Hub = Static<typeof Hub>;
export type HubCreateBody = Static<typeof HubCreateBody>;
export type HubUpdateBody = Static<typeof HubUpdateBody>;
