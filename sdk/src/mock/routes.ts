// Routing a method and path to an operation of the spec with the server's own matcher (../protocol/path-templates.ts,
// which server/spec/operations.ts runs): the first template the path matches decides, literal segments before
// parameters; HEAD as GET, 405 with the template's methods, and a path parameter that is not valid percent-encoding
// (or decodes to NUL) refused.
import { PathTemplates } from "../protocol/path-templates.ts";
import type { MockOperationSpec } from "./types.ts";

export type Route = { operationId: string; params: Record<string, string> } | { allowed: string[] } | { malformed: string };

export class RouteTable {
  /** Each path template with its operations by method. */
  private readonly paths: PathTemplates<Map<string, MockOperationSpec>>;

  constructor(operations: MockOperationSpec[]) {
    const byTemplate = new Map<string, Map<string, MockOperationSpec>>();
    for (const spec of operations) {
      const methods = byTemplate.get(spec.path) ?? new Map<string, MockOperationSpec>();
      methods.set(spec.method, spec);
      byTemplate.set(spec.path, methods);
    }
    this.paths = new PathTemplates(byTemplate);
  }

  /** The operation with its decoded path parameters; else the methods the path allows (405), none (404), or the
   * parameter that does not decode (400). */
  match(method: string, pathname: string): Route {
    const matched = this.paths.match(pathname);
    if (!matched) return { allowed: [] };
    const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
    const spec = matched.value.get(wanted);
    if (!spec) return { allowed: [...matched.value.keys()] };
    if ("malformedParam" in matched) return { malformed: matched.malformedParam };
    return { operationId: spec.operationId, params: matched.params };
  }
}
