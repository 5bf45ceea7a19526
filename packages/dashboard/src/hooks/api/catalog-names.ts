import { useHubChoices } from './hubs.ts';
import { useProductChoices } from './products.ts';

/** Product and hub names by id (the first 100 of each), to show what a row is about by name. */
export function useCatalogNames(): Map<string, string> {
  const products = useProductChoices();
  const hubs = useHubChoices({ retry: false });
  return new Map<string, string>([
    ...(products.data?.items ?? []).map((p): [string, string] => [p.id, p.title]),
    ...(hubs.data?.items ?? []).map((h): [string, string] => [h.id, h.name]),
  ]);
}
