import type { ColumnType } from "kysely";
export type Generated<T> = T extends ColumnType<infer S, infer I, infer U>
  ? ColumnType<S, I | undefined, U>
  : ColumnType<T, T | undefined, T>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type ActivityEvent = {
    id: string;
    organizationId: string;
    environment: string;
    type: string;
    resourceId: string;
    amountUsd: string | null;
    createdAt: Generated<Timestamp>;
};
export type ApiKey = {
    id: string;
    organizationId: string;
    environment: string;
    prefix: string;
    hash: string;
    scopes: string[];
    actor: string;
    label: string | null;
    /**
     * The member who created the key through the API (its actor); null for a key the operator created.
     */
    createdByMemberId: string | null;
    createdAt: Generated<Timestamp>;
    revokedAt: Timestamp | null;
    /**
     * The key carries spending limits (ApiKeySpendingLimit): read with the key, so a key without limits costs no statement.
     */
    spendingLimited: Generated<boolean>;
};
export type ApiKeySpend = {
    id: string;
    apiKeyId: string;
    asset: string;
    amount: string;
    idempotencyKey: string | null;
    createdAt: Generated<Timestamp>;
};
export type ApiKeySpendingLimit = {
    apiKeyId: string;
    asset: string;
    perCall: string | null;
    per24h: string | null;
};
export type ApiKeyUsage = {
    apiKeyId: string;
    lastUsedAt: Timestamp;
};
export type ApprovalRequest = {
    id: string;
    organizationId: string;
    environment: string;
    /**
     * provider_operation | custody_wallet | custody_transfer | issuance
     */
    kind: string;
    /**
     * The operation this approval authorises, e.g. "providers.invoke:custody.create_wallet".
     */
    action: string;
    /**
     * Scope needed to read (":read") or decide (":write") this approval, e.g. "wallets:write".
     */
    scope: string;
    payload: unknown;
    payloadHash: string;
    /**
     * pending | approved | rejected | expired (derived on read) ; consumedAt marks single use
     */
    status: string;
    requestedByActor: string;
    requestedByKeyId: string;
    /**
     * The member behind the requesting key (its creator), when any: they may never decide it.
     */
    requestedByMemberId: string | null;
    decidedByActor: string | null;
    decidedByKeyId: string | null;
    decidedByMemberId: string | null;
    decisionReason: string | null;
    decidedAt: Timestamp | null;
    expiresAt: Timestamp;
    consumedAt: Timestamp | null;
    /**
     * Resource the approval belongs to (custody wallet/transfer id, issuance request id), when any.
     */
    resourceId: string | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
    /**
     * When the expiry sweeper (server/domain/approvals/sweep-expired-approvals.ts) handled the request after expiresAt:
     * it emits approval_request.expired (and issuance_request.expired) once, for a request that expired unused.
     * Null until then; not part of the API (version and updatedAt do not move).
     */
    expirySweptAt: Timestamp | null;
};
export type AuditEntry = {
    id: string;
    organizationId: string;
    action: string;
    actorMemberId: string | null;
    actorEmail: string | null;
    clientAddress: string | null;
    target: string | null;
    details: Generated<unknown>;
    createdAt: Generated<Timestamp>;
};
export type BankTransfer = {
    id: string;
    organizationId: string;
    environment: string;
    /**
     * pending | processing | completed | failed | returned | cancelled
     */
    status: string;
    amountMinor: string;
    currency: string;
    rail: string;
    /**
     * The accounts as given (kept for the provider; the API shows them masked).
     */
    source: unknown;
    destination: unknown;
    reference: string | null;
    purposeCode: string | null;
    jurisdiction: string[];
    operatorJurisdiction: string | null;
    senderJurisdiction: string;
    receiverJurisdiction: string;
    provider: string;
    connectionId: string | null;
    simulated: boolean;
    /**
     * The provider's own id of the transfer (internal).
     */
    providerTransferId: string | null;
    /**
     * The rail's identifier once submitted (end-to-end id, trace number, IMAD, UETR).
     */
    providerReference: string | null;
    /**
     * [{status, at}] oldest first.
     */
    statusHistory: unknown;
    failureReason: unknown | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type Card = {
    id: string;
    organizationId: string;
    environment: string;
    programmeId: string;
    /**
     * Null for a card issued with only a programme (no cardholder attached).
     */
    cardholderId: string | null;
    /**
     * active | frozen | deactivated | pending (issuing unconfirmed) | failed (never issued: issue 26)
     */
    status: string;
    statusReason: string | null;
    last4: string;
    expMonth: number;
    expYear: number;
    brand: string;
    /**
     * CardLimits as given (decimal strings in the programme's funding asset, MCC lists).
     */
    limits: Generated<unknown>;
    providerReference: string;
    simulated: boolean;
    /**
     * A status or limits change whose card issuer answer is unconfirmed (issue 26): what it changed from, so the
     * reconciler can put it back if the issuer never applied it (server/domain/cards/card-pending-update.ts). Null
     * otherwise; while set, the card takes no other status or limits change.
     */
    pendingUpdate: unknown | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type CardAuthorization = {
    id: string;
    organizationId: string;
    environment: string;
    cardId: string;
    programmeId: string;
    /**
     * pending | closed | declined
     */
    status: string;
    declineReason: string | null;
    asset: string;
    amountMinor: string;
    capturedMinor: Generated<string>;
    reversedMinor: Generated<string>;
    merchantName: string;
    merchantCategory: string;
    merchantCity: string | null;
    merchantCountry: string | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type Cardholder = {
    id: string;
    organizationId: string;
    environment: string;
    name: string;
    email: string;
    phoneNumber: string | null;
    /**
     * YYYY-MM-DD
     */
    dateOfBirth: string | null;
    /**
     * {line1, line2?, city, postalCode, state?, country}
     */
    billingAddress: unknown;
    createdAt: Generated<Timestamp>;
};
export type CardLedgerEntry = {
    id: string;
    organizationId: string;
    environment: string;
    /**
     * The posting this entry belongs to: a CardTransaction id, or the programme id for its sandbox test funds.
     */
    journalId: string;
    /**
     * funding | funding_reversal | sandbox_test_funds | sandbox_test_funds_reversal | authorization_hold | capture | release
     */
    kind: string;
    programmeId: string;
    cardId: string | null;
    account: string;
    /**
     * debit | credit
     */
    direction: string;
    asset: string;
    amountMinor: string;
    createdAt: Generated<Timestamp>;
};
export type CardProgramme = {
    id: string;
    organizationId: string;
    environment: string;
    name: string;
    network: string;
    binSponsor: string;
    jurisdictions: string[];
    fundingAsset: string;
    /**
     * prefunded | just_in_time
     */
    fundingModel: string;
    /**
     * active | pending (its creation unconfirmed) | failed (never created: issue 26)
     */
    status: string;
    /**
     * Why a `failed` programme failed, for an operator (`not_executed: …` / `outcome_unconfirmed: …`); not in the API.
     */
    failureReason: string | null;
    /**
     * The card_issuance adapter that created the programme, its reference there, and the connection used (null: sandbox fallback).
     */
    providerSlug: string;
    providerReference: string;
    connectionId: string | null;
    simulated: boolean;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type CardTransaction = {
    id: string;
    /**
     * Insertion order; the list's sort key and cursor position.
     */
    seq: Generated<string>;
    organizationId: string;
    environment: string;
    cardId: string;
    authorizationId: string | null;
    /**
     * funding | authorization | capture | reversal
     */
    type: string;
    /**
     * pending | closed | posted | declined | failed (a funding the issuer never executed: issue 26)
     */
    status: string;
    declineReason: string | null;
    asset: string;
    amountMinor: string;
    merchantName: string | null;
    merchantCategory: string | null;
    merchantCity: string | null;
    merchantCountry: string | null;
    createdAt: Generated<Timestamp>;
};
export type ComplianceDecision = {
    id: string;
    organizationId: string;
    environment: string;
    /**
     * screening | policy
     */
    kind: string;
    /**
     * allow | block
     */
    decision: string;
    reasons: Generated<unknown>;
    /**
     * What was evaluated (parties, addresses, jurisdictions, amount) — no secrets.
     */
    subject: Generated<unknown>;
    /**
     * The API operation that asked, e.g. createBankTransfer, or "screen" for the explicit endpoint.
     */
    operation: string;
    requestId: string | null;
    createdAt: Generated<Timestamp>;
};
export type ContractProject = {
    id: string;
    organizationId: string;
    environment: string;
    template: string;
    asset: string;
    tokenName: string;
    decimals: number;
    network: string;
    contractName: string;
    /**
     * Solidity source: generated, or the edited source sent to compile.
     */
    source: string;
    sourceSha256: string;
    /**
     * Last completed stage, past tense: generated | compiled | validated | simulated | deployed | verified | launched
     */
    stage: string;
    /**
     * solc output of the compile stage: { compilerVersion, settings, abi, bytecode, deployedBytecode, warnings }
     */
    artifact: unknown | null;
    /**
     * Deployment of the deploy stage: { chain, chainId, contractAddress, deployer, admin, signers, ... }
     */
    deployment: unknown | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type ContractStageRun = {
    id: string;
    projectId: string;
    organizationId: string;
    environment: string;
    /**
     * generate | compile | validate | simulate | deploy | verify | launch
     */
    stage: string;
    /**
     * completed | failed
     */
    status: string;
    output: unknown;
    createdAt: Generated<Timestamp>;
};
export type CustodyTransfer = {
    id: string;
    organizationId: string;
    environment: string;
    walletId: string;
    /**
     * pending_approval | approved | submitted | completed | failed | rejected | cancelled
     */
    status: string;
    chain: string;
    destination: string;
    asset: string;
    amountMinor: string;
    /**
     * The request's `amount` exactly as given (any JSON), wrapped as {"value": …} so a given null stays apart from none
     * given; NULL when the request had none. Never read: amountMinor is what moves.
     */
    amountGiven: unknown | null;
    note: string | null;
    approvalRequestId: string;
    provider: string;
    connectionId: string | null;
    providerTransferId: string | null;
    txHash: string | null;
    failureReason: unknown | null;
    simulated: boolean;
    jurisdiction: string[];
    operatorJurisdiction: string | null;
    senderJurisdiction: string | null;
    receiverJurisdiction: string | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type CustodyWallet = {
    id: string;
    organizationId: string;
    environment: string;
    /**
     * pending_approval | processing | active | rejected | failed
     */
    status: string;
    label: string;
    chain: string;
    type: string;
    policy: unknown | null;
    address: string | null;
    approvalRequestId: string;
    provider: string;
    connectionId: string | null;
    providerWalletId: string | null;
    /**
     * Why the wallet is `failed` (the reconciler: `not_executed`, `outcome_unconfirmed`); `{code, message}`.
     */
    failureReason: unknown | null;
    simulated: boolean;
    jurisdiction: string[];
    operatorJurisdiction: string | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type Event = {
    id: string;
    organizationId: string;
    environment: string;
    /**
     * `<resource>.<past tense>`, e.g. `bank_transfer.completed` (the spec's top-level `webhooks` lists them all).
     */
    type: string;
    /**
     * The id of the resource in `data`.
     */
    resourceId: string;
    /**
     * The resource as the API returns it.
     */
    data: unknown;
    /**
     * true where a sandbox simulator acted; null where the resource has no such notion.
     */
    simulated: boolean | null;
    createdAt: Timestamp;
};
export type IdempotencyRecord = {
    id: string;
    organizationId: string;
    apiKeyId: string;
    method: string;
    path: string;
    key: string;
    fingerprint: string;
    /**
     * in_progress | completed
     */
    state: string;
    /**
     * Random per reservation: only the holder of the current lock may complete the record.
     */
    lockToken: string;
    lockedUntil: Timestamp;
    responseStatus: number | null;
    responseHeaders: unknown | null;
    responseBody: string | null;
    createdAt: Generated<Timestamp>;
    expiresAt: Timestamp;
};
export type IssuanceRequest = {
    id: string;
    organizationId: string;
    environment: string;
    issuerId: string;
    /**
     * mint | burn
     */
    kind: string;
    amountMinor: string;
    signerAddress: string;
    toAddress: string | null;
    fromAddress: string | null;
    reason: string | null;
    approvalRequestId: string;
    requestedByActor: string;
    requestedByKeyId: string;
    simulated: boolean;
    createdAt: Generated<Timestamp>;
    expiresAt: Timestamp;
};
export type Issuer = {
    id: string;
    organizationId: string;
    environment: string;
    projectId: string;
    contractAddress: string;
    chain: string;
    asset: string;
    decimals: number;
    signers: string[];
    createdAt: Generated<Timestamp>;
};
export type Member = {
    id: string;
    organizationId: string;
    email: string;
    name: string;
    /**
     * owner | developer | approver | viewer
     */
    role: string;
    passwordHash: string;
    totpSecretSealed: string | null;
    /**
     * A TOTP secret answered by beginTotpEnrollment and not yet confirmed.
     */
    totpPendingSealed: string | null;
    recoveryCodeHashes: Generated<string[]>;
    /**
     * The 30 s time step of the last TOTP code accepted for this member: a code is accepted only for a later step, so
     * each code works once (RFC 6238 §5.2), on every instance (set by a compare-and-set).
     */
    totpLastStep: number | null;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
    removedAt: Timestamp | null;
};
export type MemberInvitation = {
    id: string;
    organizationId: string;
    email: string;
    role: string;
    tokenHash: string;
    invitedByMemberId: string | null;
    expiresAt: Timestamp;
    acceptedAt: Timestamp | null;
    createdAt: Generated<Timestamp>;
};
export type MemberSession = {
    id: string;
    memberId: string;
    organizationId: string;
    tokenHash: string;
    secondFactorVerified: Generated<boolean>;
    createdAt: Generated<Timestamp>;
    /**
     * Moved at most once a minute by the requests of the session (the idle expiry counts from it).
     */
    lastSeenAt: Generated<Timestamp>;
    expiresAt: Timestamp;
    endedAt: Timestamp | null;
};
export type Organization = {
    id: string;
    settings: Generated<unknown>;
    createdAt: Generated<Timestamp>;
};
export type Payment = {
    id: string;
    organizationId: string;
    environment: string;
    status: string;
    amount: string;
    stablecoin: string;
    chain: string;
    toAddress: string;
    txHash: string;
    fees: string;
    metadata: unknown | null;
    createdAt: Generated<Timestamp>;
};
export type ProviderConnection = {
    id: string;
    organizationId: string;
    environment: string;
    category: string;
    providerSlug: string;
    reviewed: boolean;
    config: Generated<unknown>;
    createdAt: Generated<Timestamp>;
};
export type ProviderIntent = {
    id: string;
    /**
     * The write, e.g. `bank_transfer.create` (one handler each: server/domain/reconcile/intent-handlers.ts).
     */
    family: string;
    resourceId: string;
    /**
     * What the provider was called with as its idempotency key.
     */
    reference: string;
    organizationId: string;
    environment: string;
    /**
     * The Idempotency-Key's record whose stored answer the settlement writes (null: a request without a key).
     */
    idempotencyRecordId: string | null;
    /**
     * When the reconciler may next look at it (the deadline, then each backoff).
     */
    dueAt: Timestamp;
    /**
     * The reconciler's attempts so far.
     */
    attempts: Generated<number>;
    /**
     * Who holds it: the request between its transactions, then a reconciler run. Only the holder of a live lease acts.
     */
    leaseToken: string;
    leaseUntil: Timestamp;
    /**
     * The last attempt's failure, for an operator.
     */
    lastError: string | null;
    createdAt: Generated<Timestamp>;
};
export type ProviderInvocation = {
    id: string;
    organizationId: string;
    environment: string;
    providerSlug: string;
    category: string;
    operation: string;
    input: unknown;
    output: unknown | null;
    /**
     * pending_approval | succeeded
     */
    status: string;
    simulated: boolean;
    selectionReceiptId: string | null;
    approvalRequestId: string | null;
    createdAt: Generated<Timestamp>;
};
export type SandboxChainTransaction = {
    seq: number;
    blockNumber: number;
    hash: string;
    /**
     * Signed transaction, RLP-serialized, 0x-hex.
     */
    rawTx: string;
    fromAddress: string;
    toAddress: string | null;
    /**
     * Contract created by this transaction, when any.
     */
    contractAddress: string | null;
    projectId: string | null;
    description: string;
    createdAt: Generated<Timestamp>;
};
export type SelectionReceipt = {
    id: string;
    organizationId: string;
    environment: string;
    category: string;
    /**
     * The operation selected for, when one was named.
     */
    operation: string | null;
    providerSlug: string;
    connectionId: string | null;
    simulated: boolean;
    createdAt: Generated<Timestamp>;
    expiresAt: Timestamp;
};
export type SimBankTransfer = {
    idempotencyKey: string;
    providerTransferId: string;
    createdAt: Generated<Timestamp>;
};
export type SimCardIssuerCall = {
    idempotencyKey: string;
    /**
     * create_programme | issue_card | fund_card | set_card_status | set_card_limits
     */
    operation: string;
    /**
     * What the issuer answered (the programme's or card's reference and details; `{}` when it answers nothing).
     */
    result: unknown;
    createdAt: Generated<Timestamp>;
};
export type SimCustodyTransfer = {
    id: string;
    idempotencyKey: string;
    providerWalletId: string;
    asset: string;
    amountMinor: string;
    destination: string;
    /**
     * submitted | completed | failed
     */
    state: string;
    /**
     * Reads still answered `submitted` before the transfer turns final (cold wallets: 1).
     */
    pendingReads: Generated<number>;
    /**
     * Decided at submission: provider_failed | insufficient_funds | null (completes).
     */
    outcome: string | null;
    /**
     * Magic note UNREACHABLE…: every read of the transfer fails (502).
     */
    failReads: Generated<boolean>;
    txHash: string | null;
    createdAt: Generated<Timestamp>;
};
export type SimCustodyWallet = {
    id: string;
    idempotencyKey: string;
    chain: string;
    type: string;
    label: string;
    address: string;
    createdAt: Generated<Timestamp>;
};
export type Wallet = {
    id: string;
    organizationId: string;
    environment: string;
    chain: string;
    address: string;
    label: string | null;
    createdAt: Generated<Timestamp>;
};
export type WalletAsset = {
    walletId: string;
    asset: string;
    balanceMinor: string;
};
export type WebhookDelivery = {
    id: string;
    endpointId: string;
    eventId: string;
    organizationId: string;
    environment: string;
    eventType: string;
    /**
     * pending | succeeded | failed
     */
    status: string;
    attemptCount: Generated<number>;
    /**
     * Of those, the attempts a manual retry (POST …/deliveries/{id}/retry) made: they are not on the retry schedule.
     */
    manualAttemptCount: Generated<number>;
    /**
     * The next attempt is a manual retry: it does not use up an automatic attempt (server/webhooks/record-attempt.ts).
     */
    manualRetry: Generated<boolean>;
    /**
     * The automatic attempt the manual retry stepped in front of (null when none was scheduled): due again if it fails.
     */
    resumeAttemptAt: Timestamp | null;
    /**
     * When the next attempt is due; null once final.
     */
    nextAttemptAt: Timestamp | null;
    /**
     * A worker holds the delivery until then; a worker that died mid-delivery loses it when the lease ends.
     */
    leaseUntil: Timestamp | null;
    leaseToken: string | null;
    lastAttemptAt: Timestamp | null;
    lastHttpStatus: number | null;
    createdAt: Timestamp;
};
export type WebhookDeliveryAttempt = {
    id: string;
    deliveryId: string;
    attemptNumber: number;
    attemptedAt: Timestamp;
    durationMs: number;
    /**
     * The receiver's HTTP status; null when no response came (see error).
     */
    httpStatus: number | null;
    /**
     * null | timeout | connection_failed | redirect | blocked_address | http_error | signing_failed
     */
    error: string | null;
};
export type WebhookEndpoint = {
    id: string;
    organizationId: string;
    environment: string;
    url: string;
    description: string | null;
    /**
     * Event types sent here; `*` means all.
     */
    enabledEvents: string[];
    /**
     * enabled | disabled
     */
    status: string;
    /**
     * null | requested (PATCH enabled: false) | failing (a delivery failed for its whole retry schedule)
     */
    disabledReason: string | null;
    /**
     * The `whsec_` signing secret, sealed with AES-256-GCM under WEBHOOK_SECRETS_KEY (server/lib/webhooks/secret-box.ts).
     */
    secretSealed: string;
    /**
     * After a rotation, the old secret keeps signing (a second signature) until previousSecretExpiresAt.
     */
    previousSecretSealed: string | null;
    previousSecretExpiresAt: Timestamp | null;
    createdAt: Timestamp;
    updatedAt: Timestamp;
};
export type WorkflowRun = {
    id: string;
    organizationId: string;
    environment: string;
    /**
     * queued | running | completed | failed
     */
    status: string;
    /**
     * plan_only | rehearse | rehearse_with_failures
     */
    executionMode: string;
    amount: string;
    currency: string;
    payoutCurrency: string;
    asset: string;
    chain: string;
    reference: string | null;
    /**
     * The validated simulate request (what the steps execute).
     */
    request: unknown;
    simulated: boolean;
    /**
     * When the scheduler next dispatches the run; null once terminal.
     */
    nextRunAt: Timestamp | null;
    version: Generated<number>;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
};
export type WorkflowStep = {
    id: string;
    runId: string;
    position: number;
    /**
     * screening | fx_quote | onramp_bank_debit | custody_transfer | offramp_payout
     */
    name: string;
    /**
     * pending | running | succeeded | failed | skipped
     */
    status: string;
    attempts: Generated<number>;
    provider: string | null;
    simulated: boolean;
    stepKey: string;
    startedAt: Timestamp | null;
    finishedAt: Timestamp | null;
    output: unknown | null;
    error: unknown | null;
    updatedAt: Generated<Timestamp>;
};
export type DB = {
    ActivityEvent: ActivityEvent;
    ApiKey: ApiKey;
    ApiKeySpend: ApiKeySpend;
    ApiKeySpendingLimit: ApiKeySpendingLimit;
    ApiKeyUsage: ApiKeyUsage;
    ApprovalRequest: ApprovalRequest;
    AuditEntry: AuditEntry;
    BankTransfer: BankTransfer;
    Card: Card;
    CardAuthorization: CardAuthorization;
    Cardholder: Cardholder;
    CardLedgerEntry: CardLedgerEntry;
    CardProgramme: CardProgramme;
    CardTransaction: CardTransaction;
    ComplianceDecision: ComplianceDecision;
    ContractProject: ContractProject;
    ContractStageRun: ContractStageRun;
    CustodyTransfer: CustodyTransfer;
    CustodyWallet: CustodyWallet;
    Event: Event;
    IdempotencyRecord: IdempotencyRecord;
    IssuanceRequest: IssuanceRequest;
    Issuer: Issuer;
    Member: Member;
    MemberInvitation: MemberInvitation;
    MemberSession: MemberSession;
    Organization: Organization;
    Payment: Payment;
    ProviderConnection: ProviderConnection;
    ProviderIntent: ProviderIntent;
    ProviderInvocation: ProviderInvocation;
    SandboxChainTransaction: SandboxChainTransaction;
    SelectionReceipt: SelectionReceipt;
    SimBankTransfer: SimBankTransfer;
    SimCardIssuerCall: SimCardIssuerCall;
    SimCustodyTransfer: SimCustodyTransfer;
    SimCustodyWallet: SimCustodyWallet;
    Wallet: Wallet;
    WalletAsset: WalletAsset;
    WebhookDelivery: WebhookDelivery;
    WebhookDeliveryAttempt: WebhookDeliveryAttempt;
    WebhookEndpoint: WebhookEndpoint;
    WorkflowRun: WorkflowRun;
    WorkflowStep: WorkflowStep;
};
