// One domain function shape (docs/architecture.md "Domain functions"): an operation that the routes, the workers and
// the scripts call is `verbEntity(ctx, input)` — first the database handle it runs in, named `uow` (a UnitOfWork, for
// writes) or `db` (a read handle, or the Prisma client on operator paths), then one input object. This fails, naming
// file:line, when a function exported from server/domain/** and imported by such a caller takes a database handle
// another way; there are no exceptions. Functions that take no database handle
// (pure helpers: DTO mappers, parsers, checks) are not operations and are not checked.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The callers of domain operations: HTTP handlers, workers, the process entry points and the scripts. */
const CALLER_DIRS = ["server/routes", "server/webhooks", "server/scheduler", "scripts"];
const CALLER_FILES = ["server/main.ts", "server/app.ts", "server/first-owner.ts"];
const CONTEXT_NAMES = ["uow", "db"];
/** A database handle, by its type or by the name it is usually given. */
const HANDLE_TYPE = /\b(UnitOfWork|Queryable|Tx|Db|Kysely|PrismaClient|PrismaTx)\b/;
const HANDLE_NAME = /^(uow|db|tx|prisma|trx)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    return statSync(path.join(root, relative)).isDirectory() ? filesUnder(relative) : relative.endsWith(".ts") ? [relative] : [];
  });
}

const parse = (file: string, source = readFileSync(path.join(root, file), "utf8")) =>
  ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);

/** The names each caller imports from server/domain/**, keyed by the domain file (repository-relative, with `.ts`). */
function domainImportsOf(file: string, source: ts.SourceFile): Array<{ domainFile: string; name: string }> {
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) return [];
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!specifier.startsWith(".")) return [];
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, ".ts");
    if (!target.startsWith("server/domain/")) return [];
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) return [];
    return bindings.elements
      .filter((element) => !element.isTypeOnly)
      .map((element) => ({ domainFile: target, name: (element.propertyName ?? element.name).text }));
  });
}

/** The text of the types a parameter's annotation names that are declared in the same file (an options interface). */
function localTypeText(source: ts.SourceFile, type: ts.TypeNode | undefined): string {
  if (type === undefined) return "";
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) names.add(node.typeName.text);
    node.forEachChild(visit);
  };
  visit(type);
  return source.statements
    .filter((s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && names.has(s.name.text))
    .map((s) => s.getText(source))
    .join("\n");
}

/** Whether a parameter carries a database handle: typed as one, named like one, or an object that holds one (by its
 * type when declared in the file, else by the body reading `options.uow` or destructuring `{ uow } = options`). */
function carriesHandle(source: ts.SourceFile, parameter: ts.ParameterDeclaration, body = ""): boolean {
  const typeText = `${parameter.type?.getText(source) ?? ""}\n${localTypeText(source, parameter.type)}`;
  if (HANDLE_TYPE.test(typeText)) return true;
  if (ts.isIdentifier(parameter.name)) {
    const name = parameter.name.text;
    const readFromBody =
      new RegExp(`\\b${name}\\.(uow|db|tx|prisma)\\b`).test(body) ||
      new RegExp(`\\{[^}]*\\b(uow|db|tx|prisma)\\b[^}]*\\}\\s*=\\s*${name}\\b`).test(body);
    return HANDLE_NAME.test(name) || readFromBody;
  }
  return parameter.name.elements.some(
    (element) => ts.isBindingElement(element) && ts.isIdentifier(element.name) && HANDLE_NAME.test(element.name.text),
  );
}

interface ShapeViolation {
  line: number;
  name: string;
  why: string;
}

/** How an exported function of `source` named `name` breaks the shape, or null when it keeps it or is no operation. */
function shapeViolation(source: ts.SourceFile, name: string): ShapeViolation | null {
  const declaration = source.statements.find(
    (s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name && s.body !== undefined,
  );
  if (declaration === undefined) return null; // a constant, a class or a re-export: not a function this rule reads
  const parameters = declaration.parameters;
  const body = declaration.body?.getText(source) ?? "";
  if (!parameters.some((parameter) => carriesHandle(source, parameter, body))) return null; // a pure helper
  const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1;
  const [ctx, input] = parameters;
  if (ctx === undefined || !ts.isIdentifier(ctx.name) || !CONTEXT_NAMES.includes(ctx.name.text)) {
    return { line, name, why: `the first parameter is not the handle named ${CONTEXT_NAMES.join(" or ")}` };
  }
  if (parameters.length !== 2) return { line, name, why: `${parameters.length} parameters, not (ctx, input)` };
  if (input === undefined || !isObjectInput(input)) return { line, name, why: "the second parameter is not one input object" };
  if (carriesHandle(source, input)) return { line, name, why: "the input carries a database handle too" };
  return null;
}

/** An input object: destructured `{ … }`, or typed with an object type (a literal, an interface, a Pick<…>). */
function isObjectInput(parameter: ts.ParameterDeclaration): boolean {
  if (ts.isObjectBindingPattern(parameter.name)) return true;
  const type = parameter.type;
  return type !== undefined && (ts.isTypeLiteralNode(type) || ts.isTypeReferenceNode(type) || ts.isIntersectionTypeNode(type));
}

function callerFiles(): string[] {
  return [...CALLER_DIRS.flatMap(filesUnder), ...CALLER_FILES].filter((file) => !file.startsWith("scripts/sdk-generator/"));
}

describe("domain operations called from outside the domain are verbEntity(ctx, input)", () => {
  const imported = new Map<string, Set<string>>();
  for (const file of callerFiles()) {
    for (const { domainFile, name } of domainImportsOf(file, parse(file))) {
      imported.set(domainFile, (imported.get(domainFile) ?? new Set()).add(name));
    }
  }

  it("finds the callers' domain imports", () => {
    expect(imported.size).toBeGreaterThan(50);
  });

  it("every imported operation takes (uow | db, input)", () => {
    const violations = [...imported].flatMap(([domainFile, names]) => {
      const source = parse(domainFile);
      return [...names].flatMap((name) => {
        const violation = shapeViolation(source, name);
        return violation === null ? [] : [`${domainFile}:${violation.line} ${violation.name}: ${violation.why}`];
      });
    });
    expect(violations).toEqual([]);
  });
});

describe("the shape rule itself", () => {
  const check = (code: string, name = "doIt") => shapeViolation(parse("server/domain/x/throwaway.ts", code), name);

  it("accepts (uow, input) and (db, input), and ignores pure helpers", () => {
    expect(check("export async function doIt(uow: UnitOfWork, input: { auth: AuthContext; id: string }) {}")).toBeNull();
    expect(check("interface In { id: string }\nexport function doIt(db: Queryable, { id }: In) {}")).toBeNull();
    expect(check("export function doIt(row: PaymentRow): PaymentDto { return row; }")).toBeNull();
  });

  it("fails a handle inside the options, a positional list and a handle under another name, naming the line", () => {
    expect(check("interface O { uow: UnitOfWork; id: string }\n\nexport async function doIt(options: O) {}")).toEqual({
      line: 3,
      name: "doIt",
      why: "the first parameter is not the handle named uow or db",
    });
    expect(check("export async function doIt({ db, id }: { db: Queryable; id: string }) {}")?.why).toMatch(/first parameter/);
    expect(check("export async function doIt(db: Queryable, auth: AuthContext, id: string) {}")?.why).toBe(
      "3 parameters, not (ctx, input)",
    );
    expect(check("export async function doIt(prisma: Db, organizationId: string) {}")?.why).toMatch(/first parameter/);
    expect(check("export async function doIt(db: Queryable, id: string) {}")?.why).toBe("the second parameter is not one input object");
    expect(check("export async function doIt(options: ImportedOptions) {\n  const { uow, id } = options;\n}")?.why).toMatch(
      /first parameter/,
    );
  });

  it("reads the callers' value imports from server/domain, not type-only ones", () => {
    const source = parse(
      "server/routes/x.ts",
      'import { getIt, type Dto } from "../domain/things/get-it.js";\nimport type { Y } from "../domain/y.js";\nimport { z } from "../lib/z.js";',
    );
    expect(domainImportsOf("server/routes/x.ts", source)).toEqual([{ domainFile: "server/domain/things/get-it.ts", name: "getIt" }]);
  });
});
