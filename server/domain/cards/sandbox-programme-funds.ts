/** Test funds, in whole units of the funding asset, credited to every new sandbox programme's funding account. */
export const SANDBOX_PROGRAMME_FUNDS_UNITS = 100_000n;
