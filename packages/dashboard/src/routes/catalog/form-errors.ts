import type { ErrorDetail } from '@creator-commerce/sdk';

/**
 * The API's validation errors (`400 validation_failed`, `data.details[]`) by field path, so each
 * shows beside its input. Paths come as `tiers[1].price.amount` from the schema check and may
 * come as `tiers.1.price.amount` from a rule; both are read as the bracket form.
 */
export function normalisePath(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.').replace(/\.(\d+)(?=\.|\[|$)/g, '[$1]').replace(/^body\./, '');
}

export class FieldErrors {
  readonly byPath: Map<string, string>;
  constructor(details: ErrorDetail[] = []) {
    this.byPath = new Map();
    for (const d of details) {
      const path = normalisePath(d.field ?? '');
      if (!this.byPath.has(path)) this.byPath.set(path, d.message);
    }
  }

  /** The message for exactly this field. */
  get(path: string): string | undefined {
    return this.byPath.get(path);
  }

  /** Messages for paths under `prefix` that no input shows (e.g. a whole tier), as "field: message". */
  under(prefix: string, shown: (path: string) => boolean): string[] {
    return [...this.byPath].filter(([p]) => (p === prefix || p.startsWith(`${prefix}.`) || p.startsWith(`${prefix}[`)) && !shown(p)).map(([p, m]) => `${p}: ${m}`);
  }

  get size() { return this.byPath.size; }
}

export const noErrors = new FieldErrors();
