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
