/**
 * The layers of packages/server/src, checked in CI (`npm run check:layers`, docs/architecture.md).
 * Shared layers (db/, http/, errors.ts and the small modules beside it) know no domain; domains
 * talk to each other through services, never through another domain's routes; the worker runs
 * without HTTP. Tests are held to the same rules: their fixtures live in testing/.
 */
const src = '^packages/server/src/';
// Shared layers: every domain may use them; they import no domain. security/ holds the secret
// box and the outbound URL guard (webhooks, OAuth and idempotency use them); idempotency/ the
// Idempotency-Key store (http/ runs it, the worker purges it); worker/ the loop, the periodic
// helper and the work channel every domain's queued work uses (work-sources.ts wires them);
// clock/ what time it is for a brand's mode (test clocks; test-clock/ advances them); auth/ the
// principal and the hook that runs the resolvers (each resolver lives in its domain: keys/,
// users/, oauth/; app.ts wires them); catalog-cache/ the brand's catalog version and the cache
// keyed by it (the writers in products/, hubs/, brands/ and checkout/ bump it, the readers ask it);
// files/ the item file store (disk or S3).
const shared = `${src}(db|http|security|idempotency|worker|clock|auth|catalog-cache|files)/|${src}(errors|ids|money|logger|object-version|config)\\.ts$`;
// What a shared layer's tests may import besides shared layers: testing/ and app.ts (the app under test).
const testsMayUse = `${src}(testing/|app\\.ts$)`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles between files (README, Layout).',
      from: { path: src },
      to: { circular: true, viaOnly: { pathNot: '\\.test\\.ts$' } },
    },
    {
      name: 'shared-layers-know-no-domain',
      severity: 'error',
      comment: 'db/, http/, security/, idempotency/, worker/, clock/, auth/, catalog-cache/ and errors.ts serve every domain and import none of them.',
      from: { path: shared, pathNot: '\\.test\\.ts$' },
      to: { path: src, pathNot: shared },
    },
    {
      name: 'shared-layer-tests-know-no-domain',
      severity: 'error',
      comment: 'Their tests too: fixtures live in testing/, and a test about a domain lives in that domain.',
      from: { path: `${src}(db|http|security|idempotency|worker|clock|auth|catalog-cache|files)/[^/]+\\.test\\.ts$` },
      to: { path: src, pathNot: [shared, testsMayUse] },
    },
    {
      name: 'db-knows-no-http',
      severity: 'error',
      comment: 'db/ is below http/.',
      from: { path: `${src}db/` },
      to: { path: `${src}(http|auth)/` },
    },
    {
      name: 'no-other-domains-routes',
      severity: 'error',
      comment: 'A domain calls another domain\'s service, never its routes (app.ts, mcp/ and docs/ wire routes).',
      from: { path: `${src}([^/]+)/`, pathNot: [`${src}(mcp|docs|testing|cli)/`, '\\.test\\.ts$'] },
      to: { path: `${src}[^/]+/[^/]*routes\\.ts$`, pathNot: `${src}$1/` },
    },
    {
      name: 'worker-has-no-http',
      severity: 'error',
      comment: 'The worker role runs without an HTTP server: worker/ imports nothing from http/.',
      from: { path: `${src}worker/` },
      to: { path: `${src}http/` },
    },
    {
      name: 'dashboard-imports-no-server',
      severity: 'error',
      comment: 'The dashboard is a client of the API: it reaches the server through the SDK (session mode) and /dashboard/api, never by importing its source, types included (issue 21).',
      from: { path: '^packages/dashboard/' },
      to: { path: '^packages/server/' },
    },
    {
      name: 'transactions-below-money-flows',
      severity: 'error',
      comment: 'transactions/ holds the rows and the lifecycle; checkout, subscriptions, payments, payouts and refunds build on it, never the other way (issue 21).',
      from: { path: `${src}transactions/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${src}(checkout|subscriptions|payments|payouts|refunds)/`, dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'mail-below-its-senders',
      severity: 'error',
      comment: 'mail/ queues and sends; what events cause is composed in event-mail.ts, and a domain that mails calls mail/service.ts (issue 21).',
      from: { path: `${src}mail/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${src}(invoices|portal|subscriptions|transactions|refunds)/`, dependencyTypesNot: ['type-only', 'type-import'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    moduleSystems: ['es6'],
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
