// A provider (or the store a simulator keeps its books in) could not be reached or read. Unlike ProviderExecutionError
// (the provider answered with a failure → 502), this is transient: nothing happened, retry later (→ 503).
export class ProviderUnavailableError extends Error {}
