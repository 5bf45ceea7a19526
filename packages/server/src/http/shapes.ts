import { Type, type Static } from 'typebox';

/**
 * Shapes every domain's schemas share (issue 21: Mode had 8 copies and Timestamp 5). Inline
 * schemas, no $id: the OpenAPI document shows them where they are used, as before.
 */
export const Mode = Type.Union([Type.Literal('test'), Type.Literal('live')]);
export type Mode = Static<typeof Mode>;

/** An instant as ISO 8601 in UTC (what every `…At` field carries). */
export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/**
 * A response field whose values are a closed set: a string with an `enum`, so the document and
 * the SDK's generated types list the values (a union, not `string`). Only for what we answer:
 * in a request schema an enum would answer a wrong value in Ajv's words instead of ours.
 */
export const OneOf = (values: readonly string[], options: { description?: string } = {}) => Type.String({ ...options, enum: [...values] });
