// Lists and detail pages of the organization's resources: payments, bank transfers, custody wallets and transfers,
// cards (with their ledger entries), card programmes, issuance requests, contract projects. Each detail page lists the
// resource's events. A resource without a GET by id is found through its list (the contract's only read of it).
import type { ReactNode } from "react";
import { Link, useParams } from "react-router";
import { formatDecimal } from "../api/amounts.ts";
import { type Api, api, type Environment, unwrap } from "../api/client.ts";
import { useLoad } from "../api/use-load.ts";
import { type Page, usePages } from "../api/use-pages.ts";
import { Json } from "../components/dialog.tsx";
import { type Column, StreamedTable, when } from "../components/list.tsx";
import { useEnvironment } from "../components/shell.tsx";
import { ErrorState, Loading } from "../components/states.tsx";
import { ResourceEvents } from "./events.tsx";

type Row = Record<string, unknown> & { createdAt?: string };

export interface ResourceKind {
  path: string;
  title: string;
  singular: string;
  role: string;
  id(row: Row): string;
  columns: Column<Row>[];
  list(client: Api, cursor: string | null): Promise<Page<Row>>;
  get?(client: Api, id: string): Promise<Row>;
  extra?(id: string): ReactNode;
}

type CursorList = { data: unknown[]; hasMore: boolean; nextCursor: string | null };
const cursorPage = (body: CursorList): Page<Row> => ({ items: body.data as Row[], next: body.hasMore ? body.nextCursor : null });
const q = (cursor: string | null) => ({ limit: 25, ...(cursor ? { startingAfter: cursor } : {}) });
const text = (v: unknown) => (v === null || v === undefined ? "—" : String(v));
const col = (header: string, key: string): Column<Row> => ({ header, cell: (r) => text(r[key]) });
/** A decimal amount with its currency's (or asset's) decimals: "125.50". */
const money = (header: string, key: string, currencyKey: string): Column<Row> => ({
  header,
  cell: (r) => (typeof r[key] === "string" ? formatDecimal(r[key] as string, r[currencyKey] as string | undefined) : text(r[key])),
});
const created: Column<Row> = { header: "Created", cell: (r) => when(r.createdAt) };

export const RESOURCES: ResourceKind[] = [
  {
    path: "payments",
    title: "Payments",
    singular: "Payment",
    role: "viewer",
    id: (r) => String(r.id),
    columns: [
      money("Amount", "amount", "stablecoin"),
      col("Stablecoin", "stablecoin"),
      col("Chain", "chain"),
      col("Status", "status"),
      created,
    ],
    // v1 pages by offset: the cursor is the next offset.
    async list(client, cursor) {
      const offset = Number(cursor ?? 0);
      const body = await unwrap(client.GET("/api/v1/payments", { params: { query: { limit: 25, offset } } }));
      const next = offset + body.data.length;
      return { items: body.data as unknown as Row[], next: next < body.count && body.data.length > 0 ? String(next) : null };
    },
    get: async (client, id) => (await unwrap(client.GET("/api/v1/payments/{id}", { params: { path: { id } } }))) as unknown as Row,
  },
  {
    path: "bank-transfers",
    title: "Bank transfers",
    singular: "Bank transfer",
    role: "viewer",
    id: (r) => String(r.transferId),
    columns: [money("Amount", "amount", "currency"), col("Currency", "currency"), col("Rail", "rail"), col("Status", "status"), created],
    list: async (client, cursor) =>
      cursorPage(await unwrap(client.GET("/api/v2/agent/payments/bank-transfer", { params: { query: q(cursor) } }))),
  },
  {
    path: "custody-wallets",
    title: "Custody wallets",
    singular: "Custody wallet",
    role: "viewer",
    id: (r) => String(r.custodyWalletId),
    columns: [col("Label", "label"), col("Chain", "chain"), col("Status", "status"), created],
    list: async (client, cursor) => cursorPage(await unwrap(client.GET("/api/v2/agent/custody/wallets", { params: { query: q(cursor) } }))),
  },
  {
    path: "custody-transfers",
    title: "Custody transfers",
    singular: "Custody transfer",
    role: "viewer",
    id: (r) => String(r.custodyTransferId),
    columns: [
      money("Amount", "amount", "asset"),
      col("Asset", "asset"),
      col("Destination", "destination"),
      col("Status", "status"),
      created,
    ],
    list: async (client, cursor) =>
      cursorPage(await unwrap(client.GET("/api/v2/agent/custody/transfers", { params: { query: q(cursor) } }))),
  },
  {
    path: "cards",
    title: "Cards",
    singular: "Card",
    role: "viewer",
    id: (r) => String(r.cardId),
    columns: [
      { header: "Card", cell: (r) => `•••• ${text(r.last4)}` },
      col("Status", "status"),
      {
        header: "Available",
        cell: (r) => {
          const balance = r.balance as Row | undefined;
          const available = balance?.available;
          return typeof available === "string"
            ? formatDecimal(available, (balance?.currency ?? r.currency) as string | undefined)
            : text(available);
        },
      },
      created,
    ],
    list: async (client, cursor) => cursorPage(await unwrap(client.GET("/api/v2/agent/cards", { params: { query: q(cursor) } }))),
    get: async (client, id) =>
      (await unwrap(client.GET("/api/v2/agent/cards/{cardId}", { params: { path: { cardId: id } } }))) as unknown as Row,
    extra: (id) => <CardLedger cardId={id} />,
  },
  {
    path: "card-programmes",
    title: "Card programmes",
    singular: "Card programme",
    role: "viewer",
    id: (r) => String(r.programmeId),
    columns: [col("Name", "name"), col("Network", "network"), col("Funding", "fundingModel"), col("Status", "status"), created],
    list: async (client, cursor) =>
      cursorPage(await unwrap(client.GET("/api/v2/agent/cards/programmes", { params: { query: q(cursor) } }))),
  },
  {
    path: "issuance-requests",
    title: "Issuance requests",
    singular: "Issuance request",
    role: "viewer",
    id: (r) => String(r.issuanceRequestId),
    columns: [col("Kind", "kind"), col("Asset", "asset"), col("Amount (minor)", "amountMinor"), col("Status", "status"), created],
    list: async (client, cursor) =>
      cursorPage(await unwrap(client.GET("/api/v2/agent/treasury/issuance-requests", { params: { query: q(cursor) } }))),
    get: async (client, id) =>
      (await unwrap(
        client.GET("/api/v2/agent/treasury/issuance-requests/{issuanceRequestId}", { params: { path: { issuanceRequestId: id } } }),
      )) as unknown as Row,
  },
  {
    path: "contracts",
    title: "Contract projects",
    singular: "Contract project",
    role: "viewer",
    id: (r) => String(r.projectId),
    columns: [col("Token", "tokenName"), col("Asset", "asset"), col("Network", "network"), col("Stage", "stage"), created],
    list: async (client, cursor) => cursorPage(await unwrap(client.GET("/api/v2/agent/contracts", { params: { query: q(cursor) } }))),
    get: async (client, id) =>
      (await unwrap(client.GET("/api/v2/agent/contracts/{projectId}", { params: { path: { projectId: id } } }))) as unknown as Row,
  },
];

/** A resource that has no GET by id: walk its list (newest first) until it shows up. */
async function findInList(kind: ResourceKind, client: Api, id: string): Promise<Row> {
  let cursor: string | null = null;
  for (let i = 0; i < 40; i++) {
    const page = await kind.list(client, cursor);
    const found = page.items.find((r) => kind.id(r) === id);
    if (found) return found;
    if (!page.next) break;
    cursor = page.next;
  }
  throw Object.assign(new Error(`No ${kind.singular.toLowerCase()} ${id} in this environment.`), { status: 404 });
}

function load(kind: ResourceKind, environment: Environment, id: string): Promise<Row> {
  const client = api(environment);
  return kind.get ? kind.get(client, id) : findInList(kind, client, id);
}

export function ResourceList({ resource }: { resource: ResourceKind }) {
  const environment = useEnvironment();
  const pages = usePages((cursor) => resource.list(api(environment), cursor), [environment, resource.path]);
  return (
    <>
      <h1>{resource.title}</h1>
      <StreamedTable
        pages={pages}
        what={resource.title.toLowerCase()}
        caption={resource.title}
        needs={resource.role}
        rowKey={resource.id}
        columns={[
          {
            header: "Id",
            cell: (r) => (
              <Link to={`/${environment}/${resource.path}/${resource.id(r)}`}>
                <code>{resource.id(r)}</code>
              </Link>
            ),
          },
          ...resource.columns,
        ]}
      />
    </>
  );
}

export function ResourceDetail({ resource }: { resource: ResourceKind }) {
  const environment = useEnvironment();
  const { id = "" } = useParams();
  const row = useLoad(() => load(resource, environment, id), [environment, resource.path, id]);
  return (
    <>
      <p>
        <Link to={`/${environment}/${resource.path}`}>{resource.title}</Link> / {id}
      </p>
      <h1>
        {resource.singular} <code>{id}</code>
      </h1>
      {row.state === "loading" ? <Loading what={resource.singular.toLowerCase()} /> : null}
      {row.state === "error" ? <ErrorState error={row.error} retry={row.reload} needs={resource.role} /> : null}
      {row.state === "ok" ? <Json value={row.data} label={`${resource.singular} JSON`} /> : null}
      {row.state === "ok" && resource.extra ? resource.extra(id) : null}
      <ResourceEvents resourceId={id} />
    </>
  );
}

function CardLedger({ cardId }: { cardId: string }) {
  const environment = useEnvironment();
  const pages = usePages(
    async (cursor) =>
      cursorPage(
        await unwrap(api(environment).GET("/api/v2/agent/cards/{cardId}/transactions", { params: { path: { cardId }, query: q(cursor) } })),
      ),
    [environment, cardId],
  );
  return (
    <section aria-labelledby="ledger">
      <h2 id="ledger">Ledger entries</h2>
      <StreamedTable
        pages={pages}
        what="ledger entries"
        caption="Ledger entries of the card"
        needs="viewer"
        rowKey={(r) => String(r.transactionId)}
        columns={[col("Type", "type"), col("Status", "status"), money("Amount", "amount", "asset"), col("Asset", "asset"), created]}
      />
    </section>
  );
}
