// The category-specific APIs the domain endpoints use, one member per capability. An adapter implements the members of
// its category (`capabilities.bankTransfers` for bank_transfer, …); a new capability gets its interface in this folder
// and its member here.
import type { BankTransferApi } from "./bank-transfers.ts";
import type { CardIssuerApi } from "./card-issuing.ts";
import type { CustodyApi } from "./custody.ts";
import type { ChainReaderApi, ReserveSourceApi } from "./treasury.ts";

export interface ProviderCapabilities {
  bankTransfers: BankTransferApi;
  custody: CustodyApi;
  cards: CardIssuerApi;
  chainReader: ChainReaderApi;
  reserveSource: ReserveSourceApi;
}
