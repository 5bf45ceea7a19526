import { Type } from 'typebox';

// ISO 4217 minor-unit exponents that differ from 2; every other code has two decimals.
const exponents: Record<string, number> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0,
  VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0, BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
};

export const exponentOf = (currency: string) => exponents[currency.toUpperCase()] ?? 2;

/** Minor units (what we store) to the decimal number the API shows: 2550 USD -> 25.5. */
export const toMajor = (minor: number, currency: string) => minor / 10 ** exponentOf(currency);

/** The decimal number a person writes to minor units, or null if it has more decimals than the currency allows. */
export function toMinor(major: number, currency: string): number | null {
  const minor = Math.round(major * 10 ** exponentOf(currency));
  return Math.abs(minor / 10 ** exponentOf(currency) - major) < 1e-9 ? minor : null;
}

export const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. USD.' });

export const Money = Type.Object({
  amount: Type.Number({ description: 'Decimal amount as a person reads it, e.g. 25.5 for 25.50.' }),
  currency: Currency,
});

/** 3950 USD -> "39.50 USD": how amounts read in messages and on the checkout page. */
export const formatMoney = (minor: number, currency: string) => `${toMajor(minor, currency).toFixed(exponentOf(currency))} ${currency}`;

/** An amount as a request gives it (49.5), in a currency: a price, a shipping rate. */
export const Amount = Type.Number({ minimum: 0, maximum: 1e9, description: 'As a person reads it (49.5), stored in the currency\'s minor units.' });
export const MoneyInput = Type.Object({ amount: Amount, currency: Currency }, { additionalProperties: false });
