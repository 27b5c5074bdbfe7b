// The card state machine documented on `CardStatus` (openapi/components/schemas/cards.yaml): active ⇄ frozen,
// active | frozen → deactivated (terminal); any other transition is 409 CARD_RECORD_CONFLICT (null here).
import { describe, expect, it } from "vitest";
import { type CardStatus, type CardStatusAction, nextCardStatus } from "../../../../server/domain/cards/card-transitions.ts";

describe("nextCardStatus", () => {
  it.each<[CardStatus, CardStatusAction, CardStatus | null]>([
    ["active", "freeze", "frozen"],
    ["active", "unfreeze", null], // unfreeze an active card
    ["active", "deactivate", "deactivated"],
    ["frozen", "freeze", null], // freeze a frozen card
    ["frozen", "unfreeze", "active"],
    ["frozen", "deactivate", "deactivated"],
    ["deactivated", "freeze", null], // nothing leaves the terminal state
    ["deactivated", "unfreeze", null],
    ["deactivated", "deactivate", null],
  ])("%s card, %s → %s", (current, action, next) => {
    expect(nextCardStatus(current, action)).toBe(next);
  });

  it.each<CardStatusAction>(["freeze", "unfreeze", "deactivate"])("%s on a status the machine does not know is refused", (action) => {
    expect(nextCardStatus("pending", action)).toBeNull();
  });
});
