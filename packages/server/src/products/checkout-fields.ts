import type { ErrorDetail } from '../errors.ts';
import type { CheckoutFieldRow } from './repository.ts';

/**
 * The one rule for a product's checkout fields, used by checkout (form.formData), imports (each
 * record) and, later, the dashboard. docs/imports.md and docs/checkout.md give the table:
 *
 *   text      string, at most 2,000 characters
 *   email     a valid email address
 *   phone     digits, spaces, + ( ) . -, at least 5 digits
 *   number    a JSON number (a numeric string such as "2" is refused)
 *   select    exactly one of the field's options
 *   checkbox  true or false
 *   date      YYYY-MM-DD (a real calendar date) or an ISO 8601 timestamp with time zone
 *
 * `null` or `""` is no answer. No text may hold NUL or an unpaired surrogate (PostgreSQL cannot
 * store them). Emails and phones are trimmed.
 */

const maxTextLength = 2000;

// Pragmatic, not RFC 5322: one @, no spaces, a domain of dot-separated labels ending in a
// two-letter-or-longer top-level label. Unicode letters are allowed in both parts.
const emailPattern = /^(?!\.)(?!.*\.\.)[^\s@"(),:;<>[\]\\]{1,64}(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}][\p{L}\p{N}-]{0,61}[\p{L}\p{N}]$/u;
const phonePattern = /^\+?[0-9 ().-]{5,30}$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isEmail = (s: string) => s.length <= 254 && emailPattern.test(s);
export const isPhone = (s: string) => phonePattern.test(s) && (s.match(/\d/g)?.length ?? 0) >= 5;
/** Text PostgreSQL can store: no NUL, no unpaired surrogate. */
export const storable = (s: string) => !s.includes('\u0000') && !loneSurrogate.test(s);
export const unstorable = 'contains a character that cannot be stored (NUL or an unpaired surrogate)';

export function isDate(s: string): boolean {
  const m = datePattern.exec(s);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
  }
  return dateTimePattern.test(s) && !Number.isNaN(Date.parse(s)) && isDate(s.slice(0, 10));
}

/** Why `value` does not fit a checkout field of this type, or undefined when it does. */
function valueProblem(field: CheckoutFieldRow, value: unknown): string | undefined {
  if (typeof value === 'string' && !storable(value)) return unstorable;
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') return 'must be a string (a text field)';
      return value.length > maxTextLength ? `must be at most ${maxTextLength} characters` : undefined;
    case 'email':
      return typeof value === 'string' && isEmail(value.trim()) ? undefined : 'must be a valid email address (an email field)';
    case 'phone':
      return typeof value === 'string' && isPhone(value.trim()) ? undefined : 'must be a phone number such as +15550100 (a phone field)';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number (a number field)';
    case 'checkbox':
      return typeof value === 'boolean' ? undefined : 'must be true or false (a checkbox field)';
    case 'date':
      return typeof value === 'string' && isDate(value) ? undefined : 'must be a date as YYYY-MM-DD or an ISO 8601 timestamp (a date field)';
    case 'select': {
      const options = field.options ?? [];
      return typeof value === 'string' && options.includes(value) ? undefined : `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')} (a select field)`;
    }
    default:
      return `has a type (${field.type}) this service does not support`;
  }
}

export type Answer = string | number | boolean;

export interface CheckedFields {
  /** The answers that fit, keyed by field id (emails and phones trimmed; no-answers left out). */
  answers: Record<string, Answer>;
  /** One per problem, `field` being the field id. */
  problems: ErrorDetail[];
}

/**
 * Checks answers against checkout fields. Keys that are not one of `fields` are refused (the
 * caller removes the built-in ones first). With `requireAnswers`, every field marked `required`
 * must be answered, and a required checkbox must be true (checkout); imports bring in people who
 * bought elsewhere, so there `required` is not enforced (docs/imports.md).
 */
export function checkCheckoutFields(
  fields: CheckoutFieldRow[],
  values: Record<string, unknown>,
  options: { requireAnswers: boolean; unknownField: (key: string) => string; missing?: (field: CheckoutFieldRow) => string },
): CheckedFields {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const answers: Record<string, Answer> = {};
  const problems: ErrorDetail[] = [];
  for (const [key, value] of Object.entries(values)) {
    const field = byId.get(key);
    if (!field) {
      problems.push({ field: key, message: options.unknownField(key) });
      continue;
    }
    if (value === null || value === '') continue;
    const why = valueProblem(field, value);
    if (why) problems.push({ field: key, message: why });
    else answers[key] = typeof value === 'string' && (field.type === 'email' || field.type === 'phone') ? value.trim() : value as Answer;
  }
  if (options.requireAnswers) {
    for (const field of fields) {
      const answered = Object.hasOwn(answers, field.id) && !(field.type === 'checkbox' && answers[field.id] === false);
      if (field.required && !answered && !problems.some((p) => p.field === field.id)) {
        problems.push({ field: field.id, message: options.missing?.(field) ?? `is required (${field.label})` });
      }
    }
  }
  return { answers, problems };
}
