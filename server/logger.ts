import pino from "pino";

export type Logger = pino.Logger;

/** Structured JSON logs. Secrets are redacted wherever they could appear. `destination` defaults to stdout (tests
 * pass an in-memory stream to check what is logged). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}
