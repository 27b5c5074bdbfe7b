// The card state machine: active ⇄ frozen → deactivated (terminal).

export type CardStatus = "active" | "frozen" | "deactivated";
export type CardStatusAction = "freeze" | "unfreeze" | "deactivate";

export const CARD_TRANSITIONS: Readonly<Record<CardStatusAction, { from: readonly CardStatus[]; to: CardStatus }>> = Object.freeze({
  freeze: { from: ["active"], to: "frozen" },
  unfreeze: { from: ["frozen"], to: "active" },
  deactivate: { from: ["active", "frozen"], to: "deactivated" },
});

/** The status `action` moves a `current` card to, or null when the machine has no such move (409 CARD_RECORD_CONFLICT). */
export function nextCardStatus(current: string, action: CardStatusAction): CardStatus | null {
  const transition = CARD_TRANSITIONS[action];
  return (transition.from as readonly string[]).includes(current) ? transition.to : null;
}
