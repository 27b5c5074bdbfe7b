// Request bodies shared by the corridor tests.

export const SIMULATE = "/api/v2/agent/payments/corridor/simulate";
export const DISPATCH = "/api/v2/agent/payments/corridor/workflows/dispatch";
export const RUN = (id: string) => `/api/v2/agent/payments/corridor/workflows/${id}`;
export const SCHEDULER = { "x-scheduler-secret": "test-scheduler-secret" };

export const PERSON = { firstName: "Lena", lastName: "Fischer", dateOfBirth: "1988-04-17", country: "DE", nationality: "DE" };
export const DE_SOURCE = {
  type: "iban",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
  accountHolderName: "Lena Fischer",
  country: "DE",
};
export const US_DESTINATION = {
  type: "aba",
  routingNumber: "011000015",
  accountNumber: "4417123456",
  accountType: "checking",
  accountHolderName: "Jonas Fischer",
  country: "US",
  address: { line1: "200 Clarendon St", city: "Boston", region: "MA", postalCode: "02116", country: "US" },
};

export const corridor = (overrides: Record<string, unknown> = {}) => ({
  person: PERSON,
  source: DE_SOURCE,
  destination: { account: US_DESTINATION, currency: "USD" },
  amount: "1000.00",
  currency: "EUR",
  custody: { asset: "USDC", chain: "base" },
  rail: "ach",
  reference: "Family support",
  jurisdiction: ["DE", "US"],
  senderJurisdiction: "DE",
  receiverJurisdiction: "US",
  ...overrides,
});
