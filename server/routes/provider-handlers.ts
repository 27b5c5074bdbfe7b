import type { HandlerTable } from "./handler.ts";

export const providerHandlers: HandlerTable = {};
