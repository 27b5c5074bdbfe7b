// The one table of error codes lives in the SDK package (sdk/src/protocol/error-codes.ts), which the partner mock
// answers with too: v2 code → HTTP status, title, and the lower-case code used by v1, metrics and admin.
export { ERROR_CODES, type ErrorCode } from "../../sdk/src/protocol/error-codes.ts";
