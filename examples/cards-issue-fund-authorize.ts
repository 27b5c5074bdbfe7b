// Agent API (v2) cards (sandbox only: simulated): create a programme, issue a card to a new cardholder, fund it, simulate
// a card authorization with the sandbox test helper, and list the card's transactions.
// Run: npm run example -- examples/cards-issue-fund-authorize.ts   (against `npm start`)
import { run, sandboxClient, step } from "./setup.ts";

await run(async () => {
  const coinplane = await sandboxClient(["cards:write"]);

  const programme = await coinplane.cards.createProgramme({
    name: "Example expenses",
    network: "visa",
    binSponsor: "Sutton Bank",
    jurisdictions: ["US"],
    fundingAsset: "USDC",
    fundingModel: "prefunded",
  });
  step("programme", { programmeId: programme.programmeId });

  const card = await coinplane.cards.issue({
    programmeId: programme.programmeId,
    cardholder: {
      name: "Jenny Rosen",
      email: "jenny.rosen@example.com",
      billingAddress: { line1: "1 Market Street", city: "San Francisco", postalCode: "94105", state: "CA", country: "US" },
    },
    limits: { perAuthorization: "500.00", daily: "1000.00" },
  });
  step("card", { cardId: card.cardId, status: card.status, simulated: card.simulated });

  const funded = await coinplane.cards.fund(card.cardId, { amount: "250.00", asset: "USDC" });
  step("funded", funded);

  const authorization = await coinplane.cards.simulateAuthorization(card.cardId, {
    amount: "42.17",
    merchant: { name: "Corner Grocery", categoryCode: "5411", city: "San Francisco", country: "US" },
  });
  step("authorization", authorization);

  const types: string[] = [];
  for await (const tx of coinplane.cards.listTransactions(card.cardId, { limit: 1 })) types.push(tx.type);
  step("transactions", types);
  step("cardAfter", await coinplane.cards.retrieve(card.cardId));
});
