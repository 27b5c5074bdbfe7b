import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { toCustodyWalletDto } from "./custody-dto.ts";

/** The caller's custody wallets as recorded, newest first. Only Coinplane's records are read, so unlike the custody
 * writes this needs no custody connection. */
export async function listCustodyWallets(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow; status?: components["schemas"]["CustodyWalletStatus"] },
): Promise<components["schemas"]["CustodyWalletList"]> {
  const { auth, window, status } = options;
  const page = await newestFirstPage(db.selectFrom("CustodyWallet").selectAll().where(ownedBy(auth)), {
    ...window,
    unknownCursor: unknownCursor("a custody wallet"),
    filter: (query) => (status === undefined ? query : query.where("status", "=", status)),
  });
  return { data: page.rows.map(toCustodyWalletDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
