// ISO 3166-1 alpha-2 country codes, from the maintained list of `i18n-iso-countries` (250 codes, `XK` Kosovo included as
// payment networks use it). The spec's country fields carry `format: iso3166-alpha2` (a country) or
// `format: iso3166-region` (a country, or a subdivision of one such as `US-NY`); the request validator checks both
// formats with these functions, so `QQ` or `ZZ` is a 400 naming the field, never a code screened as if it existed.
import countries from "i18n-iso-countries";

const ALPHA2 = new Set(Object.keys(countries.getAlpha2Codes()));

/** `US`, `DE`: an assigned ISO 3166-1 alpha-2 code, upper case. */
export function isIsoCountry(code: string): boolean {
  return ALPHA2.has(code);
}

/** A country (`US`) or a subdivision of one (`US-NY`: an existing country, then 1–3 letters or digits). */
export function isIsoRegion(code: string): boolean {
  const match = /^([A-Z]{2})(?:-[A-Z0-9]{1,3})?$/.exec(code);
  return match !== null && ALPHA2.has(match[1] as string);
}
