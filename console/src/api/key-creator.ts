// Who made an API key, as people read it. A key holds the creating member's id (`createdBy`) and its `actor` (the
// member's email, or for a key the operator made through the admin API, the actor the operator gave it).

export interface MemberName {
  name: string;
  email: string;
}

export interface Creator {
  name: string;
  /** The member's email, or what kind of creator it was. */
  detail: string;
}

/** The creating member by name and email; a member since removed by id; a key the operator made by its actor. */
export function creatorOf(createdBy: unknown, actor: unknown, members: ReadonlyMap<string, MemberName>): Creator {
  if (typeof createdBy === "string" && createdBy !== "") {
    const member = members.get(createdBy);
    return member ? { name: member.name, detail: member.email } : { name: createdBy, detail: "no longer a member" };
  }
  return { name: typeof actor === "string" && actor !== "" ? actor : "—", detail: "the operator (admin API)" };
}
