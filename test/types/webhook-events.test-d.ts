// Type-level tests of the SDK's webhook events (sdk/src/webhooks/events.ts): the event union is generated from the
// contract's `webhooks`, so `webhooks.verify` returns an event whose `data` narrows by `type`. `npm test` type-checks
// this file; each @ts-expect-error line must fail to compile.
import { describe, expectTypeOf, it } from "vitest";
import { type components, type WebhookEvent, type WebhookEventOf, type WebhookEventType, webhooks } from "../../sdk/src/index.ts";

type Schemas = components["schemas"];

describe("webhook event types", () => {
  it("lists the contract's event types", () => {
    expectTypeOf<"bank_transfer.completed">().toExtend<WebhookEventType>();
    expectTypeOf<"card.authorization.declined">().toExtend<WebhookEventType>();
    // @ts-expect-error: not an event type of the contract
    expectTypeOf<"bank_transfer.teleported">().toExtend<WebhookEventType>();
    expectTypeOf<string>().not.toExtend<WebhookEventType>();
  });

  it("types each event's data as the resource", () => {
    expectTypeOf<WebhookEventOf<"card.issued">["data"]>().toEqualTypeOf<Schemas["Card"]>();
    expectTypeOf<WebhookEventOf<"bank_transfer.failed">["data"]>().toEqualTypeOf<Schemas["BankTransfer"]>();
    expectTypeOf<WebhookEventOf<"card.issued">["type"]>().toEqualTypeOf<"card.issued">();
  });

  it("webhooks.verify returns the union, narrowed by type", () => {
    expectTypeOf(webhooks.verify).returns.toEqualTypeOf<WebhookEvent>();
    const event = webhooks.verify("{}", {}, "whsec_AAAA");
    if (event.type === "custody_transfer.approved") {
      expectTypeOf(event.data).toEqualTypeOf<Schemas["CustodyTransfer"]>();
      // @ts-expect-error: a custody transfer has no cardId
      void event.data.cardId;
    }
    expectTypeOf(event.id).toBeString();
  });
});
