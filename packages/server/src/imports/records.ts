import type { ErrorDetail } from '../errors.ts';
import { checkCheckoutFields, isEmail, isPhone, storable, unstorable } from '../products/checkout-fields.ts';
import type { CheckoutFieldRow } from '../products/repository.ts';
import type { ImportRecord } from './repository.ts';

/** What a record may contain: hubs collect only fullName and email; products add phone and their checkout fields. */
export type RecordRules = { kind: 'hub' } | { kind: 'product'; fields: CheckoutFieldRow[] };

/** At most this many problems are listed in `data.details`; the message gives the total. */
export const maxListedProblems = 100;

const maxNameLength = 200;

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
  const fieldIds = rules.kind === 'product' ? rules.fields.map((f) => f.id) : [];
  const records: ImportRecord[] = [];
  const problems: ErrorDetail[] = [];
  let problemCount = 0;
  let invalidRecords = 0;
  // One closure for every record, not one per record: 10,000 records are checked per request.
  let index = 0;
  let bad = false;
  const problem = (field: string | undefined, message: string) => {
    bad = true;
    problemCount++;
    if (problems.length < maxListedProblems) problems.push(field === undefined ? { index, message } : { index, field, message });
  };

  for (; index < input.length; index++) {
    const raw = input[index];
    bad = false;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problem(undefined, 'must be an object keyed by checkout-field id, e.g. { "fullName": "Ada Lovelace", "email": "ada@example.com" }');
      invalidRecords++;
      continue;
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
    // Checkout-field answers, made only when the record has keys beyond fullName and email.
    let own: Record<string, unknown> | undefined;
    for (const key in record) {
      if (key === 'fullName' || key === 'email' || !Object.hasOwn(record, key)) continue;
      const value = record[key];
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
      (own ??= {})[key] = value;
    }
    let answers: Record<string, unknown> = {};
    if (own && rules.kind === 'product') {
      const checked = checkCheckoutFields(rules.fields, own, {
        requireAnswers: false,
        unknownField: () => `is not a checkout field of this product (its fields are ${['fullName', 'email', 'phone', ...fieldIds].join(', ')})`,
      });
      for (const p of checked.problems) problem(p.field, p.message);
      answers = checked.answers;
    }

    if (bad) {
      invalidRecords++;
      continue;
    }
    records.push(phone ? { index, name, email, phone, fields: answers } : { index, name, email, fields: answers });
  }
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
