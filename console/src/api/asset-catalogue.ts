// What the console needs to turn an approval request's minor units into an amount people read: the asset and decimals
// of each issuer (treasury mint and burn name only `issuerId`) and the decimals of each custody asset. Both come from
// the contract: the issuers from the launched contract projects (`listContractProjects`, each with `issuerId`, `asset`
// and `decimals`), the custody decimals from the table in the `CustodyAsset` schema's description.
import { api, type Environment, unwrap } from "./client.ts";
import { loadSpec, type Spec } from "./spec.ts";

export interface AssetInfo {
  asset: string;
  decimals: number;
}

export interface AssetCatalogue {
  /** issuerId → the issuer's token. */
  issuers: Map<string, AssetInfo>;
  /** Custody asset symbol → decimals. */
  decimals: Map<string, number>;
}

/** The decimals column of the `CustodyAsset` table ("| `USDC`, `USDT` | 6 | …"). */
export function custodyDecimals(spec: Pick<Spec, "components">): Map<string, number> {
  const description = spec.components.schemas.CustodyAsset?.description ?? "";
  const out = new Map<string, number>();
  for (const row of description.matchAll(/^\|\s*((?:`[A-Z0-9]+`[,\s]*)+)\|\s*(\d+)\s*\|/gm)) {
    for (const symbol of row[1]!.matchAll(/`([A-Z0-9]+)`/g)) out.set(symbol[1]!, Number(row[2]));
  }
  return out;
}

/** Enough pages for any real organization; an issuer beyond them shows its amount in minor units. */
const MAX_PROJECT_PAGES = 5;

async function launchedIssuers(environment: Environment): Promise<Map<string, AssetInfo>> {
  const out = new Map<string, AssetInfo>();
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PROJECT_PAGES; page++) {
    const body: { data: { issuerId: string | null; asset: string; decimals: number }[]; hasMore: boolean; nextCursor: string | null } =
      await unwrap(
        api(environment).GET("/api/v2/agent/contracts", {
          params: { query: { stage: "launched", limit: 100, ...(cursor ? { startingAfter: cursor } : {}) } },
        }),
      );
    for (const p of body.data) if (p.issuerId) out.set(p.issuerId, { asset: p.asset, decimals: p.decimals });
    if (!body.hasMore || !body.nextCursor) break;
    cursor = body.nextCursor;
  }
  return out;
}

/** The catalogue for one environment. A part that cannot be read leaves that part empty (amounts then show in minor
 * units) rather than failing the page that asked. */
export async function loadAssetCatalogue(environment: Environment): Promise<AssetCatalogue> {
  const [issuers, decimals] = await Promise.all([
    launchedIssuers(environment).catch(() => new Map<string, AssetInfo>()),
    loadSpec()
      .then(custodyDecimals)
      .catch(() => new Map<string, number>()),
  ]);
  return { issuers, decimals };
}
