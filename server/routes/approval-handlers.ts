import type { HandlerTable } from "./handler.ts";

export const approvalHandlers: HandlerTable = {};
