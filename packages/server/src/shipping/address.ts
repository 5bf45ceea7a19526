import countries from 'i18n-iso-countries';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import type { ErrorDetail } from '../errors.ts';
import type { Address } from './schemas.ts';

/**
 * The rules of an address beyond its shape: a real ISO 3166-1 country (i18n-iso-countries) and a
 * postal code in that country's format (postcode-validator, which knows the formats of about 200
 * countries). Where the library has no format the country has no postal codes (Hong Kong, the
 * Emirates, Ireland before Eircode…) or none it can check: the code is then optional and kept as typed.
 */

export const isCountry = (code: string) => /^[A-Z]{2}$/.test(code) && countries.isValid(code);

/** Whether an address in this country must give a postal code. */
export const hasPostalCodes = (country: string) => postcodeValidatorExistsForCountry(country);

const displayNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** "GB" -> "United Kingdom", for pages and mail. */
export const countryName = (code: string) => {
  try {
    return displayNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/** Every ISO 3166-1 alpha-2 code with its English name, sorted by name (the checkout's country list). */
export const countryOptions = () => Object.keys(countries.getAlpha2Codes())
  .map((code) => ({ code, name: countryName(code) }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

/** Problems of `address`, by field under `at` (e.g. `address.` or `shipping.pickupLocations[0].address.`). */
export function checkAddress(address: Address, at: string, problems: ErrorDetail[]): void {
  if (!address.line1.trim()) problems.push({ field: `${at}line1`, message: 'must not be blank' });
  if (!address.city.trim()) problems.push({ field: `${at}city`, message: 'must not be blank' });
  if (!isCountry(address.country)) {
    problems.push({ field: `${at}country`, message: `"${address.country}" is not an ISO 3166-1 alpha-2 country code (e.g. US, GB, DE)` });
    return;
  }
  const code = address.postalCode?.trim();
  if (!hasPostalCodes(address.country)) return;
  if (!code) problems.push({ field: `${at}postalCode`, message: `is required for an address in ${countryName(address.country)}` });
  else if (!postcodeValidator(code, address.country)) {
    problems.push({ field: `${at}postalCode`, message: `"${code}" is not a postal code of ${countryName(address.country)}` });
  }
}

/** An address as it goes on a parcel: "1 Market St", "Suite 300", "San Francisco CA 94105", "United States". */
export function addressLines(a: Address): string[] {
  const town = [a.city, a.region, a.postalCode].filter(Boolean).join(' ');
  return [a.line1, ...(a.line2 ? [a.line2] : []), town, countryName(a.country)];
}
