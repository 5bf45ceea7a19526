import { eventTypes } from '../events/types.ts';
import { guides, type GuideName } from './page.ts';

/**
 * The docs as Markdown for coding agents and people who read plain text (llmstxt.org): a page
 * per operation (`/docs/operations/{operationId}.md`) and per event type
 * (`/docs/events/{type}.md`), written from the served OpenAPI document alone, so a route added
 * anywhere appears here without an edit; `/llms.txt` lists them with the guides, and
 * `/llms-full.txt` is all of it in one file. Nothing here is written to disk: it is made from the
 * document when first asked for, like the document itself.
 */

type Json = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  op: Json;
}

export function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ method, path, op: op as Json })));
}

const refName = (ref: string) => ref.split('/').pop()!;
const oneLine = (text: string | undefined) => (text ?? '').replace(/\s*\n+\s*/g, ' ').trim();
const cell = (text: string | undefined) => oneLine(text).replace(/\|/g, '\\|');
const firstSentence = (text: string | undefined) => {
  const line = oneLine(text).replace(/^Our addition[^.]*\.\s*/, '');
  const m = line.match(/^(.+?[.!?])(\s|$)/);
  return (m ? m[1]! : line).replace(/\s*Scope:.*$/, '');
};

/** A schema as a short type: `string (date-time)`, `Tier[]`, `"test" | "live"`. */
export function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' \\| ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return variants.map(typeOf).join(' \\| ');
  if (Array.isArray(schema.allOf)) return schema.allOf.map(typeOf).join(' & ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  const type = [schema.type].flat().filter(Boolean).join(' \\| ') || 'object';
  return schema.format ? `${type} (${schema.format})` : type;
}

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = doc.components.schemas[refName(s.$ref)];
  return s;
}

function fieldsTable(doc: Json, schema: Json | undefined): string {
  const s = resolve(doc, schema);
  if (!s?.properties) return `Type: \`${typeOf(schema)}\`.\n`;
  const required = new Set<string>(s.required ?? []);
  const rows = Object.entries(s.properties as Json).map(([name, sub]) => {
    const shown = resolve(doc, sub as Json);
    return `| \`${name}\` | \`${typeOf(sub as Json)}\` | ${required.has(name) ? 'yes' : 'no'} | ${cell((sub as Json).description ?? shown?.description)} |`;
  });
  return ['| field | type | required | description |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}

const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
const firstExample = (media: Json | undefined) => (Object.values(media?.examples ?? {})[0] as Json | undefined)?.value;

/** The Markdown page of one operation. */
export function operationMarkdown(doc: Json, { method, path, op }: Operation): string {
  const base = String(doc.servers?.[0]?.url ?? '');
  const out: string[] = [
    `# ${op.summary ?? op.operationId}`,
    '',
    `\`${method.toUpperCase()} ${base}${path}\` · operationId \`${op.operationId}\` · ${(op.tags ?? []).map((t: string) => `tag ${t}`).join(', ')}`,
    '',
    op.description ?? '',
    '',
    '## Authentication',
    '',
    op.security?.length
      ? 'Send a brand API key as `x-service-api: svc_test_…` (test mode) or `svc_live_…` (live mode), or an OAuth access token as `Authorization: Bearer …`.'
      : 'None.',
  ];
  const params = (op.parameters ?? []).map((p: Json) => (p.$ref ? doc.components.parameters[refName(p.$ref)] : p)) as Json[];
  if (params.length) {
    out.push('', '## Parameters', '', '| name | in | required | type | description |', '|---|---|---|---|---|',
      ...params.map((p) => `| \`${p.name}\` | ${p.in} | ${p.required ? 'yes' : 'no'} | \`${typeOf(p.schema)}\` | ${cell(p.description ?? p.schema?.description)} |`));
  }
  const request = op.requestBody?.content?.['application/json'];
  if (request) {
    out.push('', '## Request body', '', fieldsTable(doc, request.schema));
    const example = firstExample(request);
    if (example !== undefined) out.push('Example:', '', json(example));
  }
  for (const [status, response] of Object.entries(op.responses as Json)) {
    if (!status.startsWith('2')) continue;
    out.push('', `## Response ${status}`, '');
    const media = response.content?.['application/json'];
    if (!media) {
      out.push(`A document: ${Object.keys(response.content ?? {}).map((t) => `\`${t}\``).join(' or ') || 'no body'}.`);
      continue;
    }
    const data = media.schema?.allOf?.[1]?.properties?.data;
    out.push('The envelope `{ status: "success", message, data }`; `data`:', '', fieldsTable(doc, data));
    const example = firstExample(media);
    if (example !== undefined) out.push('Example:', '', json(example));
  }
  const errors = Object.entries(op.responses as Json).filter(([s]) => !s.startsWith('2'));
  if (errors.length) {
    out.push('', '## Errors', '', 'Every error is `{ status: "error", message, data: { code, requestId, details? } }`.', '', '| status | meaning |', '|---|---|',
      ...errors.map(([status, r]) => `| ${status} | ${cell((r.$ref ? doc.components.responses[refName(r.$ref)] : r).description)} |`));
  }
  const samples = (op['x-codeSamples'] ?? []) as { lang: string; label: string; source: string }[];
  if (samples.length) {
    out.push('', '## Samples');
    for (const s of samples) out.push('', `${s.label}:`, '', `\`\`\`${s.lang === 'Shell' ? 'sh' : 'ts'}\n${s.source}\n\`\`\``);
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

/** The Markdown page of one event type: when it is sent and an example delivery. */
export function eventMarkdown(doc: Json, type: string): string {
  const post = doc.webhooks[type].post as Json;
  const media = post.requestBody.content['application/json'];
  const body = resolve(doc, media.schema);
  return [
    `# Event ${type}`,
    '',
    post.description,
    '',
    '## Headers',
    '',
    '| name | description |', '|---|---|',
    ...(post.parameters as Json[]).map((p) => `| \`${p.name}\` | ${cell(p.description)} |`),
    '',
    '## Body',
    '',
    fieldsTable(doc, media.schema),
    '`data`:',
    '',
    fieldsTable(doc, body?.properties?.data),
    'Example:',
    '',
    json(firstExample(media)),
    '',
  ].join('\n');
}

export interface GuideText { name: GuideName; title: string; markdown: string }

/** `/llms.txt` (llmstxt.org): the title, a summary, then links to every page, grouped. */
export function llmsIndex(doc: Json, origin: string): string {
  const ops = operationsOf(doc);
  const byTag = new Map<string, Operation[]>();
  for (const o of ops) {
    const tag = o.op.tags?.[0] ?? 'Other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), o]);
  }
  const lines = [
    `# ${doc.info.title}`,
    '',
    `> ${firstSentence(doc.info.description)} Base URL: ${doc.servers?.[0]?.url}. Every answer is \`{ status, message, data }\`; `
      + 'authenticate with a brand API key in `x-service-api` or an OAuth access token as `Authorization: Bearer`.',
    '',
    `The OpenAPI 3.1 document is at ${origin}/api/v1/openapi.json and the reference for people at ${origin}/docs. `
      + `Everything below in one file: ${origin}/llms-full.txt. Assistants can also connect over MCP at ${origin}/api/mcp (OAuth).`,
  ];
  for (const [tag, list] of byTag) {
    lines.push('', `## ${tag}`, '', ...list.map(({ method, path, op }) =>
      `- [${op.summary ?? op.operationId}](${origin}/docs/operations/${op.operationId}.md): \`${method.toUpperCase()} ${path}\`. ${firstSentence(op.description) || `${op.summary ?? ''}.`}`));
  }
  lines.push('', '## Events', '', ...eventTypes.filter((t) => doc.webhooks?.[t]).map((type) =>
    `- [${type}](${origin}/docs/events/${type}.md): the webhook delivery sent for \`${type}\`, with an example.`));
  lines.push('', '## Guides', '', ...(Object.entries(guides) as [GuideName, string][]).map(([name, title]) => `- [${title}](${origin}/docs/guides/${name}.md)`));
  lines.push('', '## Optional', '', `- [OpenAPI document](${origin}/api/v1/openapi.json): the machine-readable contract these pages are written from`,
    `- [API catalog](${origin}/.well-known/api-catalog): RFC 9727 linkset naming the API and its descriptions`);
  return `${lines.join('\n')}\n`;
}

/** `/llms-full.txt`: the index's summary, then every operation, event and guide page in full. */
export function llmsFull(doc: Json, origin: string, guideTexts: GuideText[]): string {
  const index = llmsIndex(doc, origin);
  const head = index.slice(0, index.indexOf('\n## '));
  const parts = [
    head.trim(),
    ...operationsOf(doc).map((o) => operationMarkdown(doc, o)),
    ...eventTypes.filter((t) => doc.webhooks?.[t]).map((t) => eventMarkdown(doc, t)),
    ...guideTexts.map((g) => g.markdown),
  ];
  // Each page keeps its own headings; a rule between pages tells where one ends.
  return `${parts.map((p) => p.trim()).join('\n\n---\n\n')}\n`;
}

/** `/.well-known/api-catalog` (RFC 9727): one linkset entry for the API, its OpenAPI document and its docs. */
export function apiCatalog(doc: Json, origin: string) {
  return {
    linkset: [{
      anchor: String(doc.servers?.[0]?.url ?? `${origin}/api/v1`),
      'service-desc': [{ href: `${origin}/api/v1/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
      'service-doc': [
        { href: `${origin}/docs`, type: 'text/html', title: doc.info.title },
        { href: `${origin}/llms.txt`, type: 'text/markdown', title: 'llms.txt: the docs as Markdown for coding agents' },
      ],
    }],
  };
}
