import { loadModule, parseSync } from 'libpg-query';
import type { Queryable } from '../db/client.ts';

/**
 * Checks SQL statements with PostgreSQL's own parser (libpg-query) for the rule a cluster
 * distributed by brand_id needs (issue 28 item 3): every query block that reads or writes a
 * tenant table (one with a brand_id column) names brand_id for it: in its WHERE or JOIN … ON as
 * `brand_id = …`, `brand_id = ANY (…)` or `brand_id IN (…)`, or, for an INSERT, among the columns
 * it writes. A condition inside a subquery does not count for the block around it.
 */

type Node = { [key: string]: unknown };
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;

let loaded: Promise<void> | undefined;
export const loadParser = () => (loaded ??= loadModule());

/** The tables of this database that have a brand_id column, except those named in `except`. */
export async function tenantTables(db: Queryable, except: string[] = []): Promise<Set<string>> {
  const rows = await db.query<{ table_name: string }>(
    `SELECT DISTINCT c.table_name FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
     WHERE c.column_name = 'brand_id' AND c.table_schema = current_schema()`,
  );
  return new Set(rows.map((r) => r.table_name).filter((name) => !except.includes(name)));
}

/** The tenant tables (by name) that a block of `sql` reads or writes without naming brand_id. */
export function unscopedTenantTables(sql: string, tenant: Set<string>): string[] {
  const missing: string[] = [];
  visit(parseSync(sql), tenant, missing);
  return missing;
}

interface TableRef { name: string; alias: string }

function visit(node: unknown, tenant: Set<string>, missing: string[]): void {
  if (Array.isArray(node)) {
    for (const n of node) visit(n, tenant, missing);
    return;
  }
  if (!isNode(node)) return;
  for (const [kind, body] of Object.entries(node)) {
    if (isNode(body) && ['SelectStmt', 'UpdateStmt', 'DeleteStmt', 'InsertStmt'].includes(kind)) checkBlock(kind, body, tenant, missing);
    visit(body, tenant, missing);
  }
}

function checkBlock(kind: string, block: Node, tenant: Set<string>, missing: string[]): void {
  const tables: TableRef[] = [];
  const conditions: unknown[] = [block.whereClause];
  const from = (items: unknown) => {
    for (const item of Array.isArray(items) ? items : []) collectFrom(item, tables, conditions);
  };
  if (kind === 'SelectStmt') from(block.fromClause);
  if (kind === 'UpdateStmt') { collectFrom({ RangeVar: block.relation }, tables, conditions); from(block.fromClause); }
  if (kind === 'DeleteStmt') { collectFrom({ RangeVar: block.relation }, tables, conditions); from(block.usingClause); }
  if (kind === 'InsertStmt') {
    const rel = block.relation as Node;
    const name = String(rel.relname);
    const cols = (Array.isArray(block.cols) ? block.cols : []).map((c) => String(((c as Node).ResTarget as Node).name));
    if (tenant.has(name) && !cols.includes('brand_id')) missing.push(name);
    return;
  }
  const named = new Set<string>();
  for (const c of conditions) brandIdComparisons(c, named);
  for (const t of tables) {
    if (tenant.has(t.name) && !named.has(t.alias) && !named.has('')) missing.push(t.name);
  }
}

/** The tables of a FROM item (joins included) and their ON conditions. */
function collectFrom(item: unknown, tables: TableRef[], conditions: unknown[]): void {
  if (!isNode(item)) return;
  if (isNode(item.RangeVar)) {
    const rv = item.RangeVar;
    const alias = isNode(rv.alias) ? String(rv.alias.aliasname) : String(rv.relname);
    tables.push({ name: String(rv.relname), alias });
  } else if (isNode(item.JoinExpr)) {
    const j = item.JoinExpr;
    collectFrom(j.larg, tables, conditions);
    collectFrom(j.rarg, tables, conditions);
    conditions.push(j.quals);
  }
}

/** Adds to `named` the qualifier of every `x.brand_id` (under any collation) compared by =, = ANY or IN ('' when unqualified). */
function brandIdComparisons(node: unknown, named: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) brandIdComparisons(n, named);
    return;
  }
  if (!isNode(node)) return;
  if ('SubLink' in node) return; // a subquery's conditions are its own block's
  if (isNode(node.A_Expr)) {
    const e = node.A_Expr;
    const op = Array.isArray(e.name) ? String(((e.name[0] as Node).String as Node).sval) : '';
    if (op === '=' && ['AEXPR_OP', 'AEXPR_OP_ANY', 'AEXPR_IN'].includes(String(e.kind))) {
      for (const compared of [e.lexpr, e.rexpr]) {
        // `x.brand_id COLLATE "C" = …` (migration 039) names the brand as well.
        const side = isNode(compared) && isNode(compared.CollateClause) ? compared.CollateClause.arg : compared;
        const fields = isNode(side) && isNode(side.ColumnRef) && Array.isArray(side.ColumnRef.fields) ? side.ColumnRef.fields as Node[] : [];
        const names = fields.map((f) => (isNode(f.String) ? String(f.String.sval) : ''));
        if (names.at(-1) === 'brand_id') named.add(names.length > 1 ? names[0] : '');
      }
    }
  }
  for (const v of Object.values(node)) brandIdComparisons(v, named);
}
