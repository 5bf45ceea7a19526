import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { scopes as allScopes, isScope } from '../auth/principal.ts';
import { parseDuration } from '../config.ts';
import type { Command } from './commands.ts';

export const usage = `Usage: npm run cli -- <command>

  migrate                                         apply database migrations
  brand create --name NAME [--plan free|plus] [--owner-email E [--owner-name N]]
                                                  create a brand (and make or attach its owner)
  brand plan BRAND_ID --plan free|plus            move a brand to a plan (Plus lets apps connect over OAuth/MCP)
  brand rate-limit BRAND_ID [--live N|default] [--test N|default]
                                                  set a brand's requests per second per key
  key create --brand ID --mode test|live [--scopes a,b|all] [--name LABEL]
                                                  create an API key (shown once)
  key list --brand ID                             list a brand's keys (never the keys themselves)
  key revoke KEY_ID                               revoke a key at once
  key roll KEY_ID [--grace 24h]                   a new key with the same settings; the old one works
                                                  for the grace period (0 to 7d, default 24h; 0 stops it now)
  catalog load --brand ID FILE.json               load hubs and products from a catalog file
  seed --demo                                     create a demo brand, its catalog and a test key
  member remove MEMBERSHIP_ID [--at-period-end] [--brand ID]
                                                  remove a member now, or stop renewing at period end
  clock advance --brand ID --by 31d|--to ISO_TIME move the brand's test-mode clock and run what falls due
  user create --brand ID --email E [--password-stdin] [--name N] [--role owner|developer]
                                                  add a dashboard user to a brand (password read from stdin)
  user reset-password --email E                   print a one-time link to set a new password
  email list [--brand ID] [--limit N]             the outbox: mail sent or kept unsent, newest first (default 20)
  email show MESSAGE_ID                           one message whole: headers, text and HTML parts, sending log
  coupon list --brand ID --mode test|live         a brand's coupons of one mode, with their uses
  coupon create --brand ID --mode test|live --code CODE (--percent N | --amount N --currency CUR)
        [--max N] [--per-customer N] [--ends ISO_TIME] [--duration once|forever|N]
                                                  make a coupon (docs/coupons.md); N in --duration: payments discounted
  coupon archive COUPON_ID --brand ID --mode test|live
                                                  archive a coupon: no new uses; nothing is deleted
  affiliate list --brand ID --mode test|live [--status active|archived]
                                                  a brand's affiliates of one mode, with sales and commission
  affiliate create --brand ID --mode test|live --name N --email E --code CODE --percent N
        [--product PRODUCT_ID=N …] [--recurring]
                                                  add an affiliate (docs/affiliates.md); --product: that product's own percent
  affiliate show AFFILIATE_ID --brand ID --mode test|live
                                                  one affiliate: attributed sales, commission pending, earned and paid out
  affiliate update AFFILIATE_ID --brand ID --mode test|live [--name N] [--email E] [--code CODE] [--percent N]
        [--product PRODUCT_ID=N …] [--no-products] [--recurring | --no-recurring] [--status active|archived]
                                                  change an affiliate: only what is given changes
  affiliate archive AFFILIATE_ID --brand ID --mode test|live
                                                  its code attributes no new sales; what it earned stays
  order list --brand ID --mode test|live [--limit N]
                                                  paid orders of physical products still to ship or hand over, oldest first
  order fulfil TXREF --brand ID --mode test|live (--shipped --carrier C --tracking N [--tracking-url U] | --ready-for-pickup | --picked-up)
                                                  move an order one step and tell the buyer (docs/shipping.md)
  oauth client create --name N --redirect-uri U [--redirect-uri U2 …] [--auth-method client_secret_basic|client_secret_post]
                                                  register a confidential OAuth client (secret shown once)

Every command prints one JSON object on stdout. Settings come from the same environment
as the server: DATABASE_URL, or DATA_DIR (default ./.data) for the embedded database.
\`npm run cli -- <command> --help\` shows one command's usage.`;

export class UsageError extends Error {}

/** `--help`, `-h`, `help` or no command: the text goes to stdout and the CLI exits 0. */
export class HelpRequested extends Error {}

/**
 * The usage lines of one command (`key create`, or every `key …` for `key`), with their
 * continuation lines; the whole usage when nothing matches.
 */
export function commandUsage(words: string[]): string {
  const lines = usage.split('\n');
  for (const prefix of [words.slice(0, 3).join(' '), words.slice(0, 2).join(' '), words[0] ?? '']) {
    if (!prefix) continue;
    const picked: string[] = [];
    let taking = false;
    for (const line of lines) {
      if (/^ {2}\S/.test(line)) taking = line.slice(2).startsWith(`${prefix} `) || line.slice(2) === prefix;
      else if (!/^ {3,}\S/.test(line)) taking = false;
      if (taking) picked.push(line);
    }
    if (picked.length) return `Usage: npm run cli -- <command>\n\n${picked.join('\n')}\n\nnpm run cli -- --help lists every command.`;
  }
  return usage;
}

const options = {
  name: { type: 'string' },
  plan: { type: 'string' },
  brand: { type: 'string' },
  mode: { type: 'string' },
  scopes: { type: 'string' },
  live: { type: 'string' },
  test: { type: 'string' },
  demo: { type: 'boolean' },
  'at-period-end': { type: 'boolean' },
  by: { type: 'string' },
  to: { type: 'string' },
  grace: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'owner-email': { type: 'string' },
  'owner-name': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'auth-method': { type: 'string' },
  limit: { type: 'string' },
  code: { type: 'string' },
  percent: { type: 'string' },
  amount: { type: 'string' },
  currency: { type: 'string' },
  max: { type: 'string' },
  'per-customer': { type: 'string' },
  ends: { type: 'string' },
  duration: { type: 'string' },
  product: { type: 'string', multiple: true },
  'no-products': { type: 'boolean' },
  recurring: { type: 'boolean' },
  'no-recurring': { type: 'boolean' },
  status: { type: 'string' },
  shipped: { type: 'boolean' },
  'ready-for-pickup': { type: 'boolean' },
  'picked-up': { type: 'boolean' },
  carrier: { type: 'string' },
  tracking: { type: 'string' },
  'tracking-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The flag closest to a mistyped one (at most two edits away), for "did you mean". */
function closestFlag(typed: string): string | undefined {
  const distance = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const kept = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
        previous = kept;
      }
    }
    return row[b.length]!;
  };
  const best = Object.keys(options).map((f) => ({ f, d: distance(typed, f) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= 2 ? best.f : undefined;
}

function modeOf(value: string | undefined): 'test' | 'live' {
  const mode = need(value, '--mode');
  if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live.');
  return mode;
}

/** "20" or "12.5": a percent for an affiliate's commission (the API checks 0 to 100). */
function percentOf(raw: string, flag: string): number {
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new UsageError(`${flag} must be a number of percent, such as 20 or 12.5; got "${raw}".`);
  return Number(raw);
}

/** `--product prod_…=30` (repeatable): products that earn their own percent. */
function productCommissions(pairs: string[]) {
  return pairs.map((pair) => {
    const m = /^([^=\s]+)=(.+)$/.exec(pair);
    if (!m) throw new UsageError(`--product takes PRODUCT_ID=PERCENT, such as prod_8fJ2kLm9=30; got "${pair}".`);
    return { productID: m[1]!, commissionPercent: percentOf(m[2]!, `--product ${m[1]}`) };
  });
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`Missing ${flag}.`);
  return value;
}

/** argv (after `cli --`) to a Command; reads the catalog file here so a remote server needs no file access. */
export async function parseCommand(argv: string[]): Promise<Command> {
  const loose = parseArgs({ args: argv, allowPositionals: true, strict: false, options });
  const words = loose.positionals;
  if (!words.length || words[0] === 'help' || loose.values.help === true) {
    throw new HelpRequested(words.length && words[0] !== 'help' ? commandUsage(words) : usage);
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (err) {
    // Node's words ("Unknown option '--nmae'. To specify a positional argument starting with a '-'…"), made ours.
    const flag = /option '(-{1,2}[^']+)'/.exec((err as Error).message)?.[1];
    const hint = flag ? closestFlag(flag.replace(/^-+/, '')) : undefined;
    const what = flag ? `Unknown option ${flag}${hint ? ` (did you mean --${hint}?)` : ''}.` : (err as Error).message;
    throw new UsageError(`${what}\n\n${commandUsage(words)}`);
  }
  const { values, positionals } = parsed;
  const [group, action, ...rest] = positionals;
  switch (`${group} ${action ?? ''}`.trim()) {
    case 'migrate':
      return { command: 'migrate' };
    case 'brand create': {
      const plan = values.plan ?? 'free';
      if (plan !== 'free' && plan !== 'plus') throw new UsageError('--plan must be free or plus.');
      return { command: 'brand create', name: need(values.name, '--name'), plan, ownerEmail: values['owner-email'] ?? null, ownerName: values['owner-name'] ?? null };
    }
    case 'brand plan': {
      const plan = need(values.plan, '--plan');
      if (plan !== 'free' && plan !== 'plus') throw new UsageError('--plan must be free or plus.');
      return { command: 'brand plan', brandId: need(rest[0], 'BRAND_ID'), plan };
    }
    case 'brand rate-limit': {
      const budget = (flag: 'live' | 'test') => {
        const raw = values[flag];
        if (raw === undefined) return undefined;
        if (raw === 'default') return null;
        if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1_000_000) throw new UsageError(`--${flag} must be a whole number of requests per second from 1 to 1000000, or default.`);
        return Number(raw);
      };
      const live = budget('live');
      const test = budget('test');
      if (live === undefined && test === undefined) throw new UsageError('brand rate-limit needs --live and/or --test.');
      return { command: 'brand rate-limit', brandId: need(rest[0], 'BRAND_ID'), ...(live !== undefined ? { live } : {}), ...(test !== undefined ? { test } : {}) };
    }
    case 'key create': {
      const mode = need(values.mode, '--mode');
      if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live.');
      // Only an absent flag or `all` grant every scope: an empty list is a mistake (an unset
      // shell variable, say), not a request for everything.
      const list = values.scopes === undefined || values.scopes.trim() === 'all' ? [...allScopes] : values.scopes.split(',').map((s) => s.trim());
      if (list.some((s) => s === '')) {
        throw new UsageError(`--scopes needs a comma-separated list of scopes, or all; got "${values.scopes}". Known scopes: ${allScopes.join(', ')}.`);
      }
      const unknown = list.filter((s) => !isScope(s));
      if (unknown.length) throw new UsageError(`Unknown scope ${unknown.join(', ')}. Known scopes: ${allScopes.join(', ')}.`);
      return { command: 'key create', brandId: need(values.brand, '--brand'), mode, scopes: list.filter(isScope), name: values.name ?? null };
    }
    case 'key list':
      return { command: 'key list', brandId: need(values.brand, '--brand') };
    case 'key revoke':
      return { command: 'key revoke', keyId: need(rest[0], 'KEY_ID') };
    case 'key roll': {
      const raw = values.grace ?? '24h';
      const ms = parseDuration(raw);
      // A bare number would be milliseconds in the settings' syntax; for a grace period that is
      // surely a mistake, so only 0 may go without a unit.
      if (ms === undefined || (raw.trim() !== '0' && /^\d+$/.test(raw.trim())) || ms % 1000 !== 0 || ms > 604_800_000) {
        throw new UsageError(`--grace must be a duration of whole seconds from 0 to 7d, such as 0, 90s, 30m, 24h or 7d; got "${raw}".`);
      }
      return { command: 'key roll', keyId: need(rest[0], 'KEY_ID'), graceSeconds: ms / 1000 };
    }
    case 'catalog load': {
      const file = need(rest[0], 'FILE.json');
      let catalog: unknown;
      try {
        catalog = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new UsageError(`Cannot read ${file} as JSON: ${(err as Error).message}`);
      }
      return { command: 'catalog load', brandId: need(values.brand, '--brand'), catalog };
    }
    case 'seed':
      if (!values.demo) throw new UsageError('seed needs --demo.');
      return { command: 'seed demo' };
    case 'member remove':
      return { command: 'member remove', membershipId: need(rest[0], 'MEMBERSHIP_ID'), brandId: values.brand ?? null, atPeriodEnd: values['at-period-end'] ?? false };
    case 'clock advance':
      if ((values.by === undefined) === (values.to === undefined)) throw new UsageError('clock advance needs exactly one of --by (e.g. 31d) and --to (an ISO 8601 time).');
      return { command: 'clock advance', brandId: need(values.brand, '--brand'), by: values.by ?? null, to: values.to ?? null };
    case 'user create': {
      const role = values.role ?? 'owner';
      if (role !== 'owner' && role !== 'developer') throw new UsageError('--role must be owner or developer.');
      const password = values['password-stdin'] ? await readPassword() : null;
      return { command: 'user create', brandId: need(values.brand, '--brand'), email: need(values.email, '--email'), name: values.name ?? null, role, password };
    }
    case 'user reset-password':
      return { command: 'user reset-password', email: need(values.email, '--email') };
    case 'email list': {
      const limit = values.limit ?? '20';
      if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 1000) throw new UsageError(`--limit must be a whole number from 1 to 1000; got "${limit}".`);
      return { command: 'email list', brandId: values.brand ?? null, limit: Number(limit) };
    }
    case 'email show':
      return { command: 'email show', messageId: need(rest[0], 'MESSAGE_ID') };
    case 'oauth client': {
      if (rest[0] !== 'create') throw new UsageError(`Unknown command "${positionals.join(' ')}".\n\n${commandUsage(['oauth'])}`);
      const authMethod = values['auth-method'] ?? 'client_secret_basic';
      if (authMethod !== 'client_secret_basic' && authMethod !== 'client_secret_post') throw new UsageError('--auth-method must be client_secret_basic or client_secret_post.');
      const redirectUris = values['redirect-uri'] ?? [];
      if (!redirectUris.length) throw new UsageError('Missing --redirect-uri (repeat it for each redirect URI the client uses).');
      return { command: 'oauth client create', name: need(values.name, '--name'), redirectUris, authMethod };
    }
    case 'coupon list':
      return { command: 'coupon list', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode) };
    case 'coupon create': {
      if ((values.percent === undefined) === (values.amount === undefined)) throw new UsageError('coupon create needs exactly one of --percent N and --amount N (with --currency).');
      const number = (flag: string, raw: string) => {
        if (!/^\d+(\.\d+)?$/.test(raw)) throw new UsageError(`--${flag} must be a number, such as 20 or 4.50; got "${raw}".`);
        return Number(raw);
      };
      const body: Record<string, unknown> = { code: need(values.code, '--code') };
      if (values.percent !== undefined) body.percentOff = number('percent', values.percent);
      else body.amountsOff = [{ amount: number('amount', values.amount!), currency: need(values.currency, '--currency').toUpperCase() }];
      if (values.max !== undefined) body.maxRedemptions = number('max', values.max);
      if (values['per-customer'] !== undefined) body.maxPerCustomer = number('per-customer', values['per-customer']);
      if (values.ends !== undefined) body.endsAt = values.ends;
      const duration = values.duration;
      if (duration !== undefined) {
        if (duration === 'once' || duration === 'forever') body.duration = duration;
        else Object.assign(body, { duration: 'repeating', durationPeriods: number('duration', duration) });
      }
      return { command: 'coupon create', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), body };
    }
    case 'coupon archive':
      return { command: 'coupon archive', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), couponId: need(rest[0], 'COUPON_ID') };
    case 'affiliate list': {
      const status = values.status ?? null;
      if (status !== null && status !== 'active' && status !== 'archived') throw new UsageError('--status must be active or archived.');
      return { command: 'affiliate list', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), status };
    }
    case 'affiliate create': {
      const body: Record<string, unknown> = {
        name: need(values.name, '--name'), email: need(values.email, '--email'), code: need(values.code, '--code'),
        commissionPercent: percentOf(need(values.percent, '--percent'), '--percent'),
      };
      if (values.product?.length) body.productCommissions = productCommissions(values.product);
      if (values.recurring) body.recurring = true;
      return { command: 'affiliate create', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), body };
    }
    case 'affiliate show':
      return { command: 'affiliate show', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), affiliateId: need(rest[0], 'AFFILIATE_ID') };
    case 'affiliate update': {
      if (values.recurring && values['no-recurring']) throw new UsageError('Give --recurring or --no-recurring, not both.');
      if (values.product?.length && values['no-products']) throw new UsageError('Give --product or --no-products, not both.');
      const body: Record<string, unknown> = {};
      if (values.name !== undefined) body.name = values.name;
      if (values.email !== undefined) body.email = values.email;
      if (values.code !== undefined) body.code = values.code;
      if (values.percent !== undefined) body.commissionPercent = percentOf(values.percent, '--percent');
      if (values.product?.length) body.productCommissions = productCommissions(values.product);
      if (values['no-products']) body.productCommissions = [];
      if (values.recurring) body.recurring = true;
      if (values['no-recurring']) body.recurring = false;
      if (values.status !== undefined) body.status = values.status;
      if (!Object.keys(body).length) throw new UsageError(`affiliate update needs something to change.\n\n${commandUsage(['affiliate', 'update'])}`);
      return { command: 'affiliate update', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), affiliateId: need(rest[0], 'AFFILIATE_ID'), body };
    }
    case 'affiliate archive':
      return {
        command: 'affiliate update', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), affiliateId: need(rest[0], 'AFFILIATE_ID'),
        body: { status: 'archived' },
      };
    case 'order list': {
      const limit = values.limit ?? '50';
      if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100) throw new UsageError(`--limit must be a whole number from 1 to 100; got "${limit}".`);
      return { command: 'order list', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), limit: Number(limit) };
    }
    case 'order fulfil': {
      const steps = (['shipped', 'ready-for-pickup', 'picked-up'] as const).filter((s) => values[s]);
      if (steps.length !== 1) throw new UsageError('order fulfil needs exactly one of --shipped (with --carrier and --tracking), --ready-for-pickup and --picked-up.');
      const status = steps[0] === 'shipped' ? 'shipped' : steps[0] === 'ready-for-pickup' ? 'ready_for_pickup' : 'picked_up';
      const body: Record<string, unknown> = { status };
      if (values.carrier !== undefined) body.carrier = values.carrier;
      if (values.tracking !== undefined) body.trackingNumber = values.tracking;
      if (values['tracking-url'] !== undefined) body.trackingUrl = values['tracking-url'];
      return { command: 'order fulfil', brandId: need(values.brand, '--brand'), mode: modeOf(values.mode), txref: need(rest[0], 'TXREF'), body };
    }
    default:
      throw new UsageError(`Unknown command "${positionals.join(' ')}".\n\n${commandUsage(positionals)}`);
  }
}

/** The password, from stdin (never argv, which other users of the machine can read); one trailing newline dropped. */
async function readPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (!password) throw new UsageError('--password-stdin read no password; pipe it in, e.g. printf %s "$PASSWORD" | npm run cli -- user create …');
  return password;
}
