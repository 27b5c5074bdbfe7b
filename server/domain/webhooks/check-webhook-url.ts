// The URL rules of create and update (server/lib/webhooks/address-policy.ts): production needs https and a host that is
// not and does not resolve to a non-public address; sandbox takes any http(s) URL. Called by the route BEFORE the unit
// of work opens its transaction, because resolving the host may take up to RESOLVE_TIMEOUT_MS and no transaction may wait
// on DNS. The delivery worker checks again at every attempt (DNS may change), so this is the early, friendly refusal.
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
