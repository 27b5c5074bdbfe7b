// Rules 2 and 3 of the stress test (documented on StressScenario.reserveRatio): the scenario's ratio when supplied, else
// the ratio of a connected reserve source, else 424 RESERVE_SOURCE_NOT_CONNECTED. The ratio is never estimated.
import { ServiceError } from "../../errors/service-error.ts";
import type { SourcedReport } from "./reserve-source.ts";

const RATIO = /^(0|[1-9][0-9]{0,5})(\.[0-9]{1,18})?$/;

export interface ChosenReserveRatio {
  reserveRatio: string;
  /** "scenario", or the label of the connected source. */
  reserveRatioSource: string;
  /** true only when a sandbox simulator supplied the ratio. */
  simulated: boolean;
}

/** `readSource` is asked only when the scenario has no ratio. A ratio the source reports in another format than the
 * scenario's is 503 SOURCE_NOT_AVAILABLE. */
export async function chooseReserveRatio(
  scenarioRatio: string | undefined,
  readSource: () => Promise<(Pick<SourcedReport, "label" | "simulated"> & { report: { reserveRatio: string | null } }) | null>,
): Promise<ChosenReserveRatio> {
  if (scenarioRatio !== undefined) return { reserveRatio: scenarioRatio, reserveRatioSource: "scenario", simulated: false };
  const source = await readSource();
  const ratio = source?.report.reserveRatio ?? null;
  if (!source || ratio === null) {
    throw new ServiceError(
      "RESERVE_SOURCE_NOT_CONNECTED",
      "Supply scenario.reserveRatio or connect a token_issuance reserve source; the reserve ratio is never estimated",
    );
  }
  if (!RATIO.test(ratio))
    throw new ServiceError("SOURCE_NOT_AVAILABLE", `The reserve source reported an unusable ratio`, { retryAfterSeconds: 5 });
  return { reserveRatio: ratio, reserveRatioSource: source.label, simulated: source.simulated };
}
