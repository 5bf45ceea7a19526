/**
 * A checkout field's id from its label, in camelCase: "Company name" -> "companyName" (DOMAIN.md),
 * shown while the creator types the label. The server makes the same id when it stores the field
 * (packages/server/src/catalog/field-id.ts); the dashboard keeps its own copy because it reaches
 * the server only through the API (check:layers), and catalog/field-id.test.ts there checks that
 * the two agree.
 */
export function fieldIdFromLabel(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
  return /^[0-9]/.test(id) ? `field${id}` : id || 'field';
}
