// The card tables' rows as the typed query layer reads them (numeric columns as text, timestamps as Date, JSON parsed).
import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";

export type CardRow = Selectable<DB["Card"]>;
export type CardProgrammeRow = Selectable<DB["CardProgramme"]>;
export type CardholderRow = Selectable<DB["Cardholder"]>;
export type CardAuthorizationRow = Selectable<DB["CardAuthorization"]>;
export type CardTransactionRow = Selectable<DB["CardTransaction"]>;
