// The provider failures the HTTP layer answers, named by the domain: routes reach providers only through the domain
// (issue 28, rule "http-not-to-providers" in .dependency-cruiser.cjs), so what a route must recognise is re-exported here.
export type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
export { ProviderExecutionError } from "../../providers/provider-adapter.ts";
