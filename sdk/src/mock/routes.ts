// Routing a method and path to an operation of the spec, as the server's operation index does
// (server/spec/operations.ts): literal segments before parameters, HEAD as GET, 405 with the allowed methods, and a
// path parameter that is not valid percent-encoding (or decodes to NUL) refused.
import type { MockOperationSpec } from "./types.ts";

export type Route = { operationId: string; params: Record<string, string> } | { allowed: string[] } | { malformed: string };

interface CompiledRoute {
  spec: MockOperationSpec;
  regex: RegExp;
  paramNames: string[];
}

function decodeParam(raw: string): string | null {
  try {
    const value = decodeURIComponent(raw);
    return value.includes("\0") ? null : value;
  } catch {
    return null;
  }
}

export class RouteTable {
  private readonly routes: CompiledRoute[];

  constructor(operations: MockOperationSpec[]) {
    this.routes = operations
      .map((spec) => {
        const paramNames: string[] = [];
        const pattern = spec.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
          paramNames.push(name);
          return "([^/]+)";
        });
        return { spec, regex: new RegExp(`^${pattern}/?$`), paramNames };
      })
      // Literal segments win over parameters: /cards/issue before /cards/{cardId}.
      .sort((a, b) => a.paramNames.length - b.paramNames.length);
  }

  /** The operation with its decoded path parameters; else the methods the path allows (405), none (404), or the
   * parameter that does not decode (400). */
  match(method: string, pathname: string): Route {
    const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
    const allowed: string[] = [];
    for (const route of this.routes) {
      const m = route.regex.exec(pathname);
      if (!m) continue;
      if (route.spec.method !== wanted) {
        allowed.push(route.spec.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (const [i, name] of route.paramNames.entries()) {
        const value = decodeParam(m[i + 1] as string);
        if (value === null) return { malformed: name };
        params[name] = value;
      }
      return { operationId: route.spec.operationId, params };
    }
    return { allowed: [...new Set(allowed)] };
  }
}
