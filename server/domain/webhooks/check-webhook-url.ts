// The URL rules of create and update (server/lib/webhooks/address-policy.ts): production needs https and a host that is
// not and does not resolve to a non-public address; sandbox takes any http(s) URL. Called first thing in the unit of
// work: after the Idempotency-Key's decision (a replay never resolves anything, so it never depends on DNS) and before
// the work's first write, because resolving the host may take up to RESOLVE_TIMEOUT_MS and no transaction may wait on
// DNS. A refused URL is then the key's answer like any other 400. The delivery worker checks again at every attempt (DNS
// may change), so this is the early, friendly refusal.
import type { AuthContext } from "../../context.ts";
import { validationError } from "../../errors/service-error.ts";
import { checkEndpointUrl, type Resolve } from "../../lib/webhooks/address-policy.ts";

export async function checkWebhookUrl(
  auth: AuthContext,
  url: string | undefined,
  options: { sandboxPrivateTargets: boolean; resolve?: Resolve },
): Promise<void> {
  if (url === undefined) return;
  const check = await checkEndpointUrl(url, auth.environment, options.resolve, { sandboxPrivateTargets: options.sandboxPrivateTargets });
  if (!check.ok) throw validationError("/body/url", check.reason);
}
