/** A readable API reference rendered on the server from the OpenAPI document: no scripts, no CDN. */

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  format?: string;
  additionalProperties?: boolean | Schema;
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

interface OpenApi {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

// Named shapes (Product, Membership, …) are $refs into components; the page shows them inline.
let components: Record<string, Schema> = {};
const resolve = (s: Schema): Schema => (s.$ref ? resolve(components[s.$ref.split('/').pop() ?? ''] ?? {}) : s);

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
const code = (s: string) => s.replace(/`([^`]+)`/g, '<code>$1</code>');

function typeName(schema: Schema): string {
  const s = resolve(schema);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map(typeName).join(' | ');
  if (s.type === 'array') return `array of ${s.items ? typeName(s.items) : 'any'}`;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  return s.format ? `${s.type} (${s.format})` : s.type ?? 'any';
}

function fieldRows(schema: Schema, prefix = ''): string[] {
  const rows: string[] = [];
  for (const [name, raw] of Object.entries(resolve(schema).properties ?? {})) {
    const prop = resolve(raw);
    const path = prefix + name;
    const required = schema.required?.includes(name) ? 'yes' : 'no';
    rows.push(`<tr><td><code>${esc(path)}</code></td><td>${esc(typeName(prop))}</td><td>${required}</td><td>${code(esc(prop.description ?? ''))}</td></tr>`);
    const inner = prop.type === 'array' && prop.items ? resolve(prop.items) : prop;
    if (inner?.properties) rows.push(...fieldRows(inner, `${path}${prop.type === 'array' ? '[]' : ''}.`));
  }
  return rows;
}

function table(rows: string[]) {
  return rows.length
    ? `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '<p>None.</p>';
}

function operation(method: string, path: string, op: Operation) {
  const params = (op.parameters ?? []).map((p) =>
    `<tr><td><code>${esc(p.name)}</code> (${p.in})</td><td>${esc(p.schema ? typeName(p.schema) : '')}</td><td>${p.required ? 'yes' : 'no'}</td><td>${code(esc(p.description ?? p.schema?.description ?? ''))}</td></tr>`);
  const body = op.requestBody?.content?.['application/json']?.schema;
  const success = op.responses?.['200']?.content?.['application/json']?.schema;
  const data = success ? resolve(success).properties?.data : undefined;
  const errors = Object.entries(op.responses ?? {}).filter(([status]) => status !== '200')
    .map(([status, r]) => `<li><code>${status}</code> ${code(esc(r.description ?? ''))}</li>`).join('');
  const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, '-');
  return `<section id="${id}">
<h3><span class="method">${method.toUpperCase()}</span> <code>/api/v1${esc(path.replace(/^\/api\/v1/, ''))}</code></h3>
<p><strong>${esc(op.summary ?? '')}</strong></p>
${(op.description ?? '').split('\n\n').map((p) => `<p>${code(esc(p))}</p>`).join('')}
${params.length ? `<h4>Parameters</h4>${table(params)}` : ''}
${body ? `<h4>Body</h4>${table(fieldRows(body))}` : ''}
<h4>Response <code>data</code></h4>
${data ? (resolve(data).properties ? table(fieldRows(data)) : `<p>${esc(typeName(data))}</p>`) : '<p>None.</p>'}
${errors ? `<h4>Errors</h4><ul>${errors}</ul>` : ''}
</section>`;
}

export function renderReferencePage(doc: OpenApi): string {
  components = doc.components?.schemas ?? {};
  const sections = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'Other';
      sections.set(tag, [...(sections.get(tag) ?? []), operation(method, path, op)]);
    }
  }
  const toc = [...sections.keys()].map((tag) => `<li><a href="#${esc(tag)}">${esc(tag)}</a></li>`).join('');
  const body = [...sections.entries()].map(([tag, ops]) => `<h2 id="${esc(tag)}">${esc(tag)}</h2>${ops.join('\n')}`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} reference</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.9rem}
th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #eee;padding-top:.5rem;margin-top:1.5rem}
.method{font-family:monospace;background:#1a1a1a;color:#fff;padding:.1rem .4rem;border-radius:3px}
</style></head><body>
<h1>${esc(doc.info.title)} <small>v${esc(doc.info.version)}</small></h1>
<p>${code(esc(doc.info.description ?? ''))}</p>
<p>Authenticate with your key in the <code>x-service-api</code> header. Lists take <code>limit</code> (1 to 100, default 20) and <code>cursor</code> (the previous page's <code>nextCursor</code>) and are newest first.
Errors are <code>{ "status": "error", "message", "data": { "code", "requestId", "details"? } }</code>. The machine-readable document is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<ul>${toc}</ul>
${body}
</body></html>`;
}
