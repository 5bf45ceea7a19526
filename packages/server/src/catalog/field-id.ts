/** A checkout field's id from its label, in camelCase: "Company name" -> "companyName" (DOMAIN.md). */
export function fieldIdFromLabel(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
  return /^[0-9]/.test(id) ? `field${id}` : id || 'field';
}
