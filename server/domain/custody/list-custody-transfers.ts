import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { toCustodyTransferDto } from "./custody-dto.ts";

/** The caller's custody transfers as recorded, newest first (custody/transfers/status reconciles a submitted one with
 * the provider; a list does not). Needs no custody connection. */
export async function listCustodyTransfers(
  db: Queryable,
  options: {
    auth: AuthContext;
    window: PageWindow;
    status?: components["schemas"]["CustodyTransferStatus"];
    walletId?: string;
  },
): Promise<components["schemas"]["CustodyTransferList"]> {
  const { auth, window, status, walletId } = options;
  const page = await newestFirstPage(db.selectFrom("CustodyTransfer").selectAll().where(ownedBy(auth)), {
    ...window,
    unknownCursor: unknownCursor("a custody transfer"),
    filter: (query) =>
      query
        .$if(status !== undefined, (q) => q.where("status", "=", status as string))
        .$if(walletId !== undefined, (q) => q.where("walletId", "=", walletId as string)),
  });
  return { data: page.rows.map(toCustodyTransferDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
