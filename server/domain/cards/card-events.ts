// The events of card programmes, cards and card authorizations, emitted where the issuer confirmed the change (the
// second transaction of a card write), with the resource as the write answered it. Every card resource is simulated.
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";

export function emitCardEvent(
  uow: UnitOfWork,
  scope: { organizationId: string; environment: string },
  type: EventType & (`card.${string}` | `card_programme.${string}`),
  resourceId: string,
  data: { simulated: boolean },
): void {
  emitEvent(uow, { ...scope, type, resourceId, data, simulated: data.simulated });
}
