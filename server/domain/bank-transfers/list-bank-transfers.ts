import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { toBankTransferDto } from "./bank-transfer-dto.ts";

type BankTransferStatus = components["schemas"]["BankTransferStatus"];

/** The caller's bank transfers as recorded, newest first; no provider is asked (bank-transfer/status does that). */
export async function listBankTransfers(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow; status?: BankTransferStatus },
): Promise<components["schemas"]["BankTransferList"]> {
  const { auth, window, status } = options;
  const page = await newestFirstPage(db.selectFrom("BankTransfer").selectAll().where(ownedBy(auth)), {
    ...window,
    unknownCursor: unknownCursor("a bank transfer"),
    filter: (query) => (status === undefined ? query : query.where("status", "=", status)),
  });
  return { data: page.rows.map(toBankTransferDto), hasMore: page.hasMore, nextCursor: page.nextCursor };
}
