import { lazy, type ComponentType } from 'react';

/**
 * A page loaded when it is first opened, as its own chunk: the first load carries the shell and
 * the page asked for, not every page (issue 26's 200 KB budget, checked by
 * scripts/dashboard-budget.ts). The route tables keep naming pages as before; only their import
 * lines change. The layouts' Suspense shows "Loading…" while a chunk arrives.
 */
export function lazyPage<M extends Record<K, ComponentType>, K extends keyof M>(load: () => Promise<M>, name: K): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await load())[name] }));
}
