// The storage port of the sandbox card issuing simulator (issue 26): the simulated issuer's books — which references it
// executed, as which operation, and what it answered. Declared here, with the card issuing capability whose call context
// carries it; implemented by the data part (server/db/simulated-card-issuer-store.ts) on the database itself, never on
// the caller's transaction: the books are the issuer's, so what it executed stays executed when our transaction rolls
// back. A live issuer keeps its own books and ignores it.

/** A write the simulated issuer executed. `result` is what it answered (JSON). */
export interface SimulatedCardIssuerCall {
  operation: string;
  result: Record<string, unknown>;
}

export interface SimulatedCardIssuerStore {
  /** Records the execution under its reference; when one stands under that reference already, that one is returned
   * and nothing is written (a reference never executes twice). One statement. */
  execute(reference: string, call: SimulatedCardIssuerCall): Promise<SimulatedCardIssuerCall>;
  /** The execution recorded under this reference, if any. */
  find(reference: string): Promise<SimulatedCardIssuerCall | undefined>;
}
