// The query parameters every cursor list shares (openapi/components/parameters.yaml: ListLimit, StartingAfter,
// CreatedAfter, CreatedBefore), turned into the pager's window once, so each list parses them the same way.
import type { PageWindow } from "../../db/newest-first-page.ts";
import { validationError } from "../../errors/service-error.ts";

/** The shared parameters as the contract types them (the validator has checked their syntax). */
export interface ListQuery {
  limit?: number;
  startingAfter?: string;
  createdAfter?: string;
  createdBefore?: string;
}

/** The page size when `limit` is not given (ListLimit's default). */
export const DEFAULT_PAGE_SIZE = 10;

/** The validator's date-time format check is syntactic (it lets `2026-13-01T00:00:00Z` through); an instant the clock
 * cannot represent is a bad input, never a 500 from the driver. */
function instant(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw validationError(`/query/${name}`, "is not a valid date-time");
  return date;
}

export function pageWindow(query: ListQuery, defaultLimit = DEFAULT_PAGE_SIZE): PageWindow {
  return {
    limit: query.limit ?? defaultLimit,
    startingAfter: query.startingAfter,
    createdAfter: instant(query.createdAfter, "createdAfter"),
    createdBefore: instant(query.createdBefore, "createdBefore"),
  };
}

/** The 400 of a cursor that is not an item of the list for this key: `what` names the item, with its article. */
export const unknownCursor = (what: string) => () =>
  validationError("/query/startingAfter", `is not ${what} of this organization and environment`);
