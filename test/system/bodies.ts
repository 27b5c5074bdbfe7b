// Request bodies shared by the system tests (the same orders as test/http/bank-transfers.test.ts).

export const BANK_TRANSFER = "/api/v2/agent/payments/bank-transfer";

export const sepaTransfer = (reference: string, amount = "1250.00") => ({
  amount,
  currency: "EUR",
  source: {
    type: "iban",
    iban: "DE89370400440532013000",
    bic: "COBADEFFXXX",
    accountHolderName: "Acme Trading GmbH",
    country: "DE",
  },
  destination: {
    type: "iban",
    iban: "FR1420041010050500013M02606",
    bic: "PSSTFRPPXXX",
    accountHolderName: "Dupont Fournitures SARL",
    country: "FR",
  },
  rail: "sepa",
  purposeCode: "SUPP",
  reference,
  jurisdiction: ["DE", "FR"],
  operatorJurisdiction: "DE",
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
});
