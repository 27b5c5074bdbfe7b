// What the console needs to turn an approval request's minor units into an amount people read: the asset and decimals
// of each issuer (treasury mint and burn name only `issuerId`) and the decimals of each custody asset. Both come from
// the contract: the issuers from the launched contract projects (`listContractProjects`, each with `issuerId`, `asset`
// and `decimals`), the custody decimals from the table in the `CustodyAsset` schema's description.
import { custodyDecimals } from "./amounts.ts";
import type { AssetCatalogue, AssetInfo } from "./approval-summary.ts";
import { api, type Environment, unwrap } from "./client.ts";
import { loadSpec } from "./spec.ts";

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
      .then((spec) => custodyDecimals(spec.components.schemas.CustodyAsset?.description ?? ""))
      .catch(() => new Map<string, number>()),
  ]);
  return { issuers, decimals };
}
