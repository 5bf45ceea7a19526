/**
 * ISO 4217 currencies for the currency pickers, from the browser's own list
 * (`Intl.supportedValuesOf('currency')`, which tracks the standard with each release) and named in
 * the reader's language ("EUR · Euro"). Precious metals, bond units and the test code are codes of
 * ISO 4217 but not money a product is priced in, so they are left out.
 */
const notMoney = new Set(['XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XPD', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX']);

let cached: { value: string; label: string }[] | undefined;

export function currencyChoices(): { value: string; label: string }[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(typeof navigator === 'undefined' ? ['en'] : [...navigator.languages, 'en'], { type: 'currency' });
  cached = Intl.supportedValuesOf('currency').filter((c) => !notMoney.has(c)).map((code) => {
    const name = names.of(code);
    return { value: code, label: name && name !== code ? `${code} · ${name}` : code };
  });
  return cached;
}

/** The choices with `current` in them, so a stored code the browser does not list still shows. */
export function currencyChoicesWith(current: string): { value: string; label: string }[] {
  const all = currencyChoices();
  return !current || all.some((c) => c.value === current) ? all : [{ value: current, label: current }, ...all];
}
