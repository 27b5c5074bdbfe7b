// The card state machine: active ⇄ frozen → deactivated (terminal).

export type CardStatus = "active" | "frozen" | "deactivated";
export type CardStatusAction = "freeze" | "unfreeze" | "deactivate";

export const CARD_TRANSITIONS: Readonly<Record<CardStatusAction, { from: readonly CardStatus[]; to: CardStatus }>> = Object.freeze({
  freeze: { from: ["active"], to: "frozen" },
  unfreeze: { from: ["frozen"], to: "active" },
  deactivate: { from: ["active", "frozen"], to: "deactivated" },
});
