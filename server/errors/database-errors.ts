// Kept for its importers: the rules live in the one classifier (server/errors/classify-failure.ts).
export { isDatabaseUnavailable, isUniqueViolation } from "./classify-failure.ts";
