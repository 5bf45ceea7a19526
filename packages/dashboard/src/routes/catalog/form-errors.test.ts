import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldErrors, inWords } from './form-errors.ts';

/** The validator's words and the catalog rules' words, as the sentences the editors show. */
describe('catalog form errors in plain words', () => {
  it('asks for an empty or missing field by name', () => {
    assert.equal(inWords('title', 'must NOT have fewer than 1 characters'), 'Enter a title');
    assert.equal(inWords('tiers[0].name', 'must NOT have fewer than 1 characters'), 'Enter a name');
    assert.equal(inWords('checkoutFields[2].label', 'must NOT have fewer than 1 characters'), 'Enter a question');
    assert.equal(inWords('tiers[0].price', "must have required property 'currency'"), 'Enter a price');
    assert.equal(inWords('tiers', 'must NOT have fewer than 1 items'), 'Add a tier');
  });

  it('says what a number must be', () => {
    assert.equal(inWords('tiers[1].price.amount', 'must be >= 0'), 'The price must be 0 or more');
    assert.equal(inWords('tiers.1.price.amount', 'must be >= 0'), 'The price must be 0 or more');
    assert.equal(inWords('tiers[0].noOfTickets', 'must be <= 100'), 'The number of tickets per purchase must be 100 or less');
    assert.equal(inWords('tiers[0].slots', 'must be integer'), 'Enter the number of places as a whole number');
    assert.equal(inWords('percentOff', 'must be number'), 'Enter the percent off as a number');
  });

  it('turns patterns, formats and lists into what to do', () => {
    assert.equal(inWords('tiers[0].price.currency', 'must match pattern "^[A-Z]{3}$"'), 'Choose a currency');
    assert.equal(inWords('imageUrl', 'must match format "uri"'), 'Enter a full web address, starting with https://');
    assert.equal(inWords('visibility', 'must be one of public, unlisted, private'), 'Choose visibility');
    assert.equal(inWords('event.dateTime', 'must match format "date-time"'), 'Enter a start date and time');
    assert.equal(inWords('event', 'is required for an event product'), "Enter the event's date, time and venue");
  });

  it('words the catalog rules and keeps an unknown rule readable', () => {
    assert.equal(inWords('tiers[0].price.amount', 'has more decimals than JPY allows'), 'The price has more decimals than JPY allows');
    assert.equal(inWords('tiers[0].discount.amount', 'is more than the price'), 'The discount is more than the price');
    assert.equal(inWords('tiers', 'all tiers of a product must use one currency'), 'Use one currency for every tier');
    assert.equal(inWords('items[0].price', 'is required for an add-on'), 'Enter a price: buyers pay for an add-on');
    assert.equal(inWords('code', 'is already used by another coupon'), 'The code is already used by another coupon');
    assert.equal(inWords('', 'Something went wrong'), 'Something went wrong');
  });

  it('never shows the validator text or a field path', () => {
    const errors = new FieldErrors([
      { field: 'title', message: 'must NOT have fewer than 1 characters' },
      { field: '/tiers/0/price/amount', message: 'must be >= 0' },
      { field: 'tiers[0].recurrence.interval', message: 'must be >= 1' },
    ]);
    assert.equal(errors.get('title'), 'Enter a title');
    assert.equal(errors.get('tiers[0].price.amount'), 'The price must be 0 or more');
    assert.deepEqual(errors.under('tiers[0]', (p) => p.endsWith('.amount')), ['The billing interval must be 1 or more']);
    for (const m of errors.byPath.values()) assert.doesNotMatch(m, /must NOT|>=|\[\d\]|pattern/);
  });
});
