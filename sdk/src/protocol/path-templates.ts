// Matching a request path to the spec's path templates, shared by the server's operation index (server/spec/
// operations.ts) and the partner mock's route table (../mock/routes.ts), so both route a path the same way: literal
// segments before parameters (/cards/issue before /cards/{cardId}), an optional trailing slash, and a path parameter
// that is not valid percent-encoded UTF-8 or decodes to a NUL refused (no database can store or look it up).
// Pure (no import), so the SDK package carries it.

export type PathMatch<T> =
  /** The first template that matches, with its decoded path parameters. */
  | { template: string; value: T; params: Record<string, string> }
  /** The first template that matches, but this parameter does not decode. */
  | { template: string; value: T; malformedParam: string };

interface CompiledTemplate<T> {
  template: string;
  value: T;
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

function compile<T>(template: string, value: T): CompiledTemplate<T> {
  const paramNames: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
    paramNames.push(name);
    return "([^/]+)";
  });
  return { template, value, regex: new RegExp(`^${pattern}/?$`), paramNames };
}

/** How many "/" a path holds: a template matches only paths with as many (params never contain one), or one more
 * when the path ends with the optional trailing slash. */
function slashesIn(path: string): number {
  let count = 0;
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) count++;
  return count;
}

/** The spec's path templates, each with what the caller keeps for it (e.g. its operations by method). */
export class PathTemplates<T> {
  /** By how many "/" the template holds, each list in match order: a request tries only the templates its path could
   * match instead of every one (a GET by id tried ~60 regular expressions before it). */
  private readonly bySlashes = new Map<number, CompiledTemplate<T>[]>();

  constructor(entries: Iterable<readonly [template: string, value: T]>) {
    const compiled = [...entries]
      .map(([template, value]) => compile(template, value))
      // Literal segments win over parameters: /cards/issue before /cards/{cardId}.
      .sort((a, b) => a.paramNames.length - b.paramNames.length);
    for (const template of compiled) {
      const slashes = slashesIn(template.template);
      const list = this.bySlashes.get(slashes) ?? [];
      list.push(template);
      this.bySlashes.set(slashes, list);
    }
  }

  /** The first template `path` matches (its parameters decoded), or undefined when none does. */
  match(path: string): PathMatch<T> | undefined {
    const slashes = slashesIn(path);
    const exact = this.matchIn(this.bySlashes.get(slashes), path);
    // A trailing slash is optional: "/a/b/" may be the template "/a/b". Both lists are in match order, and a path
    // matches templates of one of them only (with or without its trailing slash counted), so the order holds.
    if (exact || !path.endsWith("/")) return exact;
    return this.matchIn(this.bySlashes.get(slashes - 1), path);
  }

  private matchIn(candidates: CompiledTemplate<T>[] | undefined, path: string): PathMatch<T> | undefined {
    for (const { template, value, regex, paramNames } of candidates ?? []) {
      const m = regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      for (const [i, name] of paramNames.entries()) {
        const decoded = decodeParam(m[i + 1] as string);
        if (decoded === null) return { template, value, malformedParam: name };
        params[name] = decoded;
      }
      return { template, value, params };
    }
    return undefined;
  }
}
