// A `oneOf` body whose branches share no tag property is told apart by the members each branch requires: every branch
// refuses members it does not list, so a body the validator let through carries the required members of exactly one
// branch. Deciding that here, once, hands the domain a tagged union to switch on.
import { validationError } from "../../errors/service-error.ts";

/** The members a body of type T must carry. */
export type RequiredKey<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T] & string;

/** One `{ kind, ...body }` per branch, `kind` naming the branch. */
export type Tagged<Branches> = { [K in keyof Branches]: { kind: K } & Branches[K] }[keyof Branches];

/** Tags `body` with the one branch whose required members it all carries. `required` lists, per branch, members that
 * branch requires (checked against its type) and that together tell it from the others. A body that matches no branch
 * or several (the validator refuses both) is a 400 VALIDATION_ERROR, worded like the validator's. */
export function tagOneOf<Branches extends Record<string, object>>(
  body: Branches[keyof Branches],
  required: { [K in keyof Branches]: readonly RequiredKey<Branches[K]>[] },
): Tagged<Branches> {
  const kinds = Object.keys(required).filter((kind) => required[kind]?.every((key) => Object.hasOwn(body, key)));
  const [kind] = kinds;
  if (kind === undefined || kinds.length > 1) throw validationError("/body", "must match exactly one schema in oneOf");
  // The one cast: `kind` was chosen by the members of its own branch.
  return { ...body, kind } as Tagged<Branches>;
}
