// `npm run mock -- emit <eventType> --url <url> --secret whsec_…` (or `coinplane-mock emit …`): one signed event to a URL.
// The secret may come from COINPLANE_WEBHOOK_SECRET instead of the command line (which other users can see in `ps`).
import { parseArgs } from "node:util";
import { emitMockEvent, mockEventTypes } from "./emit-event.ts";

const USAGE = `Usage: coinplane-mock emit <eventType> --url <url> --secret <whsec_…> [--secret <whsec_…>]
         [--data '<json merged into data>'] [--timestamp <unix seconds>] [--organization <org_…>]
         [--environment sandbox|production] [--simulated]
       coinplane-mock emit --list
The secret may also be given as COINPLANE_WEBHOOK_SECRET.`;

/** Runs the command; returns the process exit code (0: the receiver answered 2xx). */
export async function runEmitCommand(argv: string[], log = console.log, error = console.error): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.list) {
    log(mockEventTypes().join("\n"));
    return 0;
  }
  const type = positionals[0];
  const secrets = values.secret ?? (process.env.COINPLANE_WEBHOOK_SECRET ? [process.env.COINPLANE_WEBHOOK_SECRET] : []);
  if (!type || !values.url || secrets.length === 0) {
    error(USAGE);
    return 2;
  }
  try {
    const data = values.data === undefined ? undefined : (JSON.parse(values.data) as Record<string, unknown>);
    const result = await emitMockEvent({
      type,
      url: values.url,
      secret: secrets,
      data,
      timestamp: values.timestamp === undefined ? undefined : Number(values.timestamp),
      organizationId: values.organization,
      environment: values.environment as "sandbox" | "production" | undefined,
      simulated: values.simulated,
    });
    log(
      `${result.event.type} ${result.event.id} → ${values.url}: HTTP ${result.status}${result.responseBody ? ` ${result.responseBody.slice(0, 200)}` : ""}`,
    );
    return result.ok ? 0 : 1;
  } catch (err) {
    error(`emit failed: ${(err as Error).message}`);
    return 1;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      secret: { type: "string", multiple: true },
      data: { type: "string" },
      timestamp: { type: "string" },
      organization: { type: "string" },
      environment: { type: "string" },
      simulated: { type: "boolean" },
      list: { type: "boolean" },
    },
  });
}
