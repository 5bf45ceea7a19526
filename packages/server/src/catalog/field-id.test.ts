import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldIdFromLabel as dashboards } from '../../../dashboard/src/routes/catalog/field-id.ts';
import { fieldIdFromLabel } from './field-id.ts';

describe('a checkout field\'s id from its label', () => {
  const labels = ['Company name', 'T-shirt size', 'Café ÉTÉ', '2nd address line', '', '   ', '!!!', 'VAT ID', 'über   große Zahl', 'a_b-c d'];

  it('is camelCase, starts with a letter and is never empty', () => {
    assert.equal(fieldIdFromLabel('Company name'), 'companyName');
    assert.equal(fieldIdFromLabel('2nd address line'), 'field2ndAddressLine');
    assert.equal(fieldIdFromLabel('!!!'), 'field');
  });

  it('is the id the dashboard shows while the label is typed (its copy agrees with ours)', () => {
    for (const label of labels) assert.equal(dashboards(label), fieldIdFromLabel(label), label);
  });
});
