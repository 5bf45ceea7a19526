import type { ItemInput, TierInput } from '../products/schemas.ts';
import type { ItemDraft, PointerNames, TierDraft } from './rules.ts';

/**
 * API bodies (POST/PATCH /products and /hubs) as drafts for catalog/rules.ts: over the API an
 * entry points at an item by its id, or by the `ref` of an item added in the same request.
 */

export const apiNames: PointerNames = { tierItems: 'itemIDs', parent: 'parentId' };

export const tierDraft = ({ id, itemIDs, ...values }: TierInput): TierDraft => ({ ...values, ...(id !== undefined ? { key: id } : {}), itemKeys: itemIDs ?? [] });

export const itemDraft = ({ id, ref, parentId, ...values }: ItemInput): ItemDraft => {
  const key = id ?? ref;
  return { ...values, ...(key !== undefined ? { key } : {}), ...(parentId !== undefined ? { parentKey: parentId } : {}) };
};
