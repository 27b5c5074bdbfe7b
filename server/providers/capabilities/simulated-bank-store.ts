// The storage port of the sandbox bank transfer simulator (issue 26): the simulated bank's books — which references it
// executed, and as which transfer. Declared here, with the bank-transfer capability whose call context carries it;
// implemented by the data part (server/db/simulated-bank-store.ts) on the database itself, never on the caller's
// transaction: the books are the provider's, so what it executed stays executed when our transaction rolls back.

/** A transfer the simulated bank executed. */
export interface SimulatedBankExecution {
  providerTransferId: string;
}

export interface SimulatedBankStore {
  /** Records the execution under its reference; when one stands under that reference already, that one is returned
   * and nothing is written (a reference never executes twice). One statement. */
  execute(reference: string, execution: SimulatedBankExecution): Promise<SimulatedBankExecution>;
  /** The execution recorded under this reference, if any. */
  find(reference: string): Promise<SimulatedBankExecution | undefined>;
}
