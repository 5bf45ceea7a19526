import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * No request body may nest objects and arrays deeper than this. Our deepest shape is a few levels
 * (items[].…, form.formData.…); `booking` and `address` are kept as sent, so they get room. Deeper
 * JSON is refused before anything walks it: validation, the text rule and the serializer all
 * recurse, and 5,000 levels inside `booking` used to end in a 500 from a stack overflow.
 */
export const maxJsonDepth = 32;

/** The deepest nesting of objects and arrays in JSON text, found without parsing it (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return deepest;
}

/** Fastify's own JSON parser (with its prototype-poisoning refusal), behind a depth check. */
export function installJsonDepthLimit(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDepth(body as string) > maxJsonDepth) {
      done(new AppError('validation_failed', `The body nests objects or arrays more than ${maxJsonDepth} levels deep; send flatter JSON.`), undefined);
      return;
    }
    parse(req, body as string, done);
  });
}
