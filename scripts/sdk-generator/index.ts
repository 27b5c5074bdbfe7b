// SDK tables generated from the bundled spec (called by scripts/generate.ts; outputs under sdk/src/generated/):
// - operations.ts: per operationId its method, path, surface, Idempotency-Key rule and pagination (from `x-pagination`),
//   plus every error code the spec documents (the SDK's `ApiErrorCode` union);
// - namespaces.ts: the documented method signatures of `coinplane.<namespace>.<method>` (see namespaces.ts);
// - schemas.ts: a documented alias per component schema (`Schemas.Wallet`);
// - mock-data.ts: what the partner mock serves (see mock-data.ts).
// Everything is derived from the spec: a new operation, example or error code appears here on the next `npm run generate`.
import { errorCodes } from "./error-codes.ts";
import { mockData } from "./mock-data.ts";
import { type MethodMap, namespacesModule, schemasModule } from "./namespaces.ts";
import { operationTable } from "./operation-table.ts";
import { type ListDeclaration, readPagination } from "./pagination.ts";
import { type Doc, specOperations } from "./spec.ts";

export type { MethodMap } from "./namespaces.ts";
export { PaginationError } from "./pagination.ts";

export interface SdkArtifacts {
  operationsTs: string;
  namespacesTs: string;
  schemasTs: string;
  mockDataTs: string;
}

/** `methods` is the SDK's operation map (operationId → [namespace, method]). */
export function generateSdkArtifacts(doc: Doc, notice: string, methods: MethodMap): SdkArtifacts {
  const ops = specOperations(doc);
  const lists = new Map<string, ListDeclaration>();
  for (const o of ops) {
    const list = readPagination(doc, o);
    if (list) lists.set(o.op.operationId, list);
  }
  const header = `/* ${notice} */\n`;
  const operationsTs = `${header}
/** Every operation of the spec: method, path template, surface, Idempotency-Key rule and pagination style. */
export const operationTable = ${JSON.stringify(operationTable(doc, ops, lists), null, 2)} as const;

export type OperationId = keyof typeof operationTable;

/** Every error code the spec documents (v1 lower snake case, v2 upper snake case). */
export const errorCodes = ${JSON.stringify(errorCodes(doc, ops), null, 2)} as const;

export type ApiErrorCode = (typeof errorCodes)[number];
`;
  const mockDataTs = `${header}import type { MockData } from "../mock/types.ts";

/** What the partner mock serves, derived from the spec's examples. */
export const mockData: MockData = ${JSON.stringify(mockData(doc, ops, lists))};
`;
  const namespacesTs = namespacesModule(doc, ops, methods, header);
  const schemasTs = schemasModule(doc, ops, methods, header);
  return { operationsTs, namespacesTs, schemasTs, mockDataTs };
}
