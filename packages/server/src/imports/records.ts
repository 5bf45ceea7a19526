import type { ErrorDetail } from '../errors.ts';
import type { CheckoutFieldRow } from '../products/repository.ts';
import type { ImportRecord } from './repository.ts';

/** What a record may contain: hubs collect only fullName and email; products add phone and their checkout fields. */
export type RecordRules = { kind: 'hub' } | { kind: 'product'; fields: CheckoutFieldRow[] };

/** At most this many problems are listed in `data.details`; the message gives the total. */
export const maxListedProblems = 100;

const maxNameLength = 200;
const maxTextLength = 2000;

// Pragmatic, not RFC 5322: one @, no spaces, a domain of dot-separated labels ending in a
// two-letter-or-longer top-level label. Unicode letters are allowed in both parts.
const emailPattern = /^(?!\.)(?!.*\.\.)[^\s@"(),:;<>[\]\\]{1,64}(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}][\p{L}\p{N}-]{0,61}[\p{L}\p{N}]$/u;
const phonePattern = /^\+?[0-9 ().-]{5,30}$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** PostgreSQL text and jsonb cannot hold NUL, nor JSON's escaped unpaired surrogates: refuse them here rather than fail at insert. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (s: string) => !s.includes('\u0000') && !loneSurrogate.test(s);
const unstorable = 'contains a character that cannot be stored (NUL or an unpaired surrogate)';

export const isEmail = (s: string) => s.length <= 254 && emailPattern.test(s);
const isPhone = (s: string) => phonePattern.test(s) && (s.match(/\d/g)?.length ?? 0) >= 5;

function isDate(s: string): boolean {
  const m = datePattern.exec(s);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
  }
  return dateTimePattern.test(s) && !Number.isNaN(Date.parse(s)) && isDate(s.slice(0, 10));
}

/** Why `value` does not fit a checkout field of this type, or undefined when it does. */
function fieldProblem(field: CheckoutFieldRow, value: unknown): string | undefined {
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
      return `has a type (${field.type}) imports do not support`;
  }
}

export interface CheckedRecords {
  /** Every record, normalised, in request order (only meaningful when there are no problems). */
  records: ImportRecord[];
  /** The first maxListedProblems problems. */
  problems: ErrorDetail[];
  problemCount: number;
  invalidRecords: number;
}

/**
 * Checks every record against the rules and normalises the valid ones: names and emails trimmed,
 * a null value taken as "no answer" for optional keys, checkout-field answers kept in `fields`.
 */
export function checkRecords(input: unknown[], rules: RecordRules): CheckedRecords {
  const fields = new Map(rules.kind === 'product' ? rules.fields.map((f) => [f.id, f]) : []);
  const records: ImportRecord[] = [];
  const problems: ErrorDetail[] = [];
  let problemCount = 0;
  let invalidRecords = 0;

  input.forEach((raw, index) => {
    let bad = false;
    const problem = (field: string | undefined, message: string) => {
      bad = true;
      problemCount++;
      if (problems.length < maxListedProblems) problems.push(field === undefined ? { index, message } : { index, field, message });
    };
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problem(undefined, 'must be an object keyed by checkout-field id, e.g. { "fullName": "Ada Lovelace", "email": "ada@example.com" }');
      invalidRecords++;
      return;
    }
    const record = raw as Record<string, unknown>;

    const fullName = record.fullName;
    let name = '';
    if (fullName === undefined || fullName === null) problem('fullName', 'is required');
    else if (typeof fullName !== 'string') problem('fullName', 'must be a string');
    else if (!storable(fullName)) problem('fullName', unstorable);
    else if (!(name = fullName.trim())) problem('fullName', 'must not be empty');
    else if (name.length > maxNameLength) problem('fullName', `must be at most ${maxNameLength} characters`);

    const rawEmail = record.email;
    let email = '';
    if (rawEmail === undefined || rawEmail === null) problem('email', 'is required');
    else if (typeof rawEmail !== 'string') problem('email', 'must be a string');
    else if (!storable(rawEmail)) problem('email', unstorable);
    else if (!isEmail((email = rawEmail.trim()))) problem('email', 'is not a valid email address');

    let phone: string | undefined;
    const answers: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (key === 'fullName' || key === 'email') continue;
      if (rules.kind === 'hub') {
        problem(key, 'is not a field hubs collect: hub member records take only fullName and email');
        continue;
      }
      if (key === 'phone') {
        if (value === null) continue;
        if (typeof value !== 'string' || !isPhone(value.trim())) problem(key, 'must be a phone number such as +15550100');
        else phone = value.trim();
        continue;
      }
      const field = fields.get(key);
      if (!field) {
        const known = ['fullName', 'email', 'phone', ...fields.keys()].join(', ');
        problem(key, `is not a checkout field of this product (its fields are ${known})`);
        continue;
      }
      if (value === null) continue;
      const why = typeof value === 'string' && !storable(value) ? unstorable : fieldProblem(field, value);
      if (why) problem(key, why);
      else answers[key] = typeof value === 'string' && (field.type === 'email' || field.type === 'phone') ? value.trim() : value;
    }

    if (bad) {
      invalidRecords++;
      return;
    }
    records.push({ index, name, email, ...(phone ? { phone } : {}), fields: answers });
  });
  return { records, problems, problemCount, invalidRecords };
}

/**
 * Folds records that repeat an earlier record's email (case-insensitive, as the membership's
 * unique index compares them) into the first one: the first occurrence is imported.
 */
export function foldDuplicates(records: ImportRecord[]): { people: ImportRecord[]; duplicates: number } {
  const seen = new Set<string>();
  const people: ImportRecord[] = [];
  for (const r of records) {
    const key = r.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    people.push(r);
  }
  return { people, duplicates: records.length - people.length };
}
