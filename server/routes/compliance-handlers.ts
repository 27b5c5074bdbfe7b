import type { HandlerTable } from "./handler.ts";

export const complianceHandlers: HandlerTable = {};
