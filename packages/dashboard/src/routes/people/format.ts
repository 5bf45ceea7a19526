/** Amounts as the API gives them (decimal, e.g. 39.5) with their currency: "39.50 USD". */
export function money(amount: number | undefined | null, currency: string | undefined | null): string {
  if (amount === undefined || amount === null) return '';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency || 'USD', currencyDisplay: 'code' }).format(amount);
  } catch {
    return `${amount} ${currency ?? ''}`.trim();
  }
}

/** A short amount for secondary lines, with the currency's symbol ("$2.28"); the row's main amount names the currency. */
export function shortMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(amount);
  } catch {
    return String(amount);
  }
}
