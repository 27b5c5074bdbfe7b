import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { notFound } from "../../errors/service-error.ts";
import { type EventDto, toEventDto } from "./event-dto.ts";

export async function getEvent(db: Queryable, options: { auth: AuthContext; eventId: string }): Promise<EventDto> {
  const row = await db.selectFrom("Event").selectAll().where("id", "=", options.eventId).where(ownedBy(options.auth)).executeTakeFirst();
  if (!row) throw notFound("Event");
  return toEventDto(row);
}
