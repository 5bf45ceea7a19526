import { Type, type TSchema } from 'typebox';

/** Every success response: `{ status: "success", message, data }`. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    status: Type.Literal('success'),
    message: Type.String(),
    data,
  });

export const ErrorEnvelope = Type.Object({
  status: Type.Literal('error'),
  message: Type.String({ description: 'What went wrong, in words a person can act on.' }),
  data: Type.Object({
    code: Type.String({ description: 'Stable machine code, e.g. validation_failed, scope_missing, not_found.' }),
    requestId: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({
      field: Type.Optional(Type.String()),
      index: Type.Optional(Type.Number()),
      message: Type.String(),
    }))),
  }),
}, { $id: 'ErrorEnvelope' });

export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    hasMore: Type.Boolean(),
    nextCursor: Type.String({ description: 'Pass as `cursor` to get the next page; an empty string on the last page.' }),
  });

export function ok<T>(message: string, data: T) {
  return { status: 'success' as const, message, data };
}
