import pino from "pino";

export type Logger = pino.Logger;

/** Structured JSON logs. Secrets are redacted wherever they could appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers['x-scheduler-secret']",
        "req.headers.cookie",
        "key",
        "adminToken",
        "*.key",
        "*.adminToken",
      ],
      censor: "[redacted]",
    },
  });
}
