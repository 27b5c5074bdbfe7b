// The SDK surface: operationId → [namespace, method]. Explicit on purpose (names are API design, not derivations), and
// checked both ways: a key that is not an operation of the spec fails `tsc` (`satisfies`), and test/sdk/coverage.test.ts
// fails when an operation of the spec (other than admin and health) has no entry here.
import type { operations } from "./generated/openapi.ts";

export const operationMap = {
  // Sandbox API (v1)
  createWallet: ["wallets", "create"],
  listWallets: ["wallets", "list"],
  getWallet: ["wallets", "retrieve"],
  getWalletBalance: ["wallets", "retrieveBalance"],
  createPayment: ["payments", "create"],
  listPayments: ["payments", "list"],
  getPayment: ["payments", "retrieve"],
  getBalances: ["balances", "retrieve"],
  // Metrics
  getMetric: ["metrics", "retrieve"],
  // Agent API (v2): contracts and providers
  listContractTemplates: ["contracts", "listTemplates"],
  generateContract: ["contracts", "generate"],
  listContractProjects: ["contracts", "list"],
  getContractProject: ["contracts", "retrieve"],
  compileContract: ["contracts", "compile"],
  validateContract: ["contracts", "validate"],
  simulateContract: ["contracts", "simulate"],
  deployContract: ["contracts", "deploy"],
  verifyContract: ["contracts", "verify"],
  launchContract: ["contracts", "launch"],
  listProviders: ["providers", "list"],
  selectProvider: ["providers", "select"],
  invokeProvider: ["providers", "invoke"],
  // Compliance and approvals
  screenCompliance: ["compliance", "screen"],
  evaluatePolicy: ["compliance", "evaluatePolicy"],
  listApprovalRequests: ["approvals", "list"],
  getApprovalRequest: ["approvals", "retrieve"],
  approveApprovalRequest: ["approvals", "approve"],
  rejectApprovalRequest: ["approvals", "reject"],
  // Bank transfers and corridors
  createBankTransfer: ["bankTransfers", "create"],
  listBankTransfers: ["bankTransfers", "list"],
  getBankTransferStatus: ["bankTransfers", "status"],
  cancelBankTransfer: ["bankTransfers", "cancel"],
  simulateCorridor: ["corridors", "simulate"],
  getCorridorWorkflowRun: ["corridors", "retrieveWorkflowRun"],
  dispatchCorridorWorkflows: ["corridors", "dispatchWorkflows"],
  // Custody
  createCustodyWallet: ["custody", "createWallet"],
  listCustodyWallets: ["custody", "listWallets"],
  getCustodyWalletBalance: ["custody", "walletBalance"],
  createCustodyTransfer: ["custody", "createTransfer"],
  listCustodyTransfers: ["custody", "listTransfers"],
  getCustodyTransferStatus: ["custody", "transferStatus"],
  // Treasury
  requestMint: ["treasury", "mint"],
  requestBurn: ["treasury", "burn"],
  getTreasuryStatus: ["treasury", "status"],
  runTreasuryStressTest: ["treasury", "stressTest"],
  listIssuanceRequests: ["treasury", "listIssuanceRequests"],
  getIssuanceRequest: ["treasury", "retrieveIssuanceRequest"],
  // Cards
  createCardProgramme: ["cards", "createProgramme"],
  listCardProgrammes: ["cards", "listProgrammes"],
  issueCard: ["cards", "issue"],
  listCards: ["cards", "list"],
  getCard: ["cards", "retrieve"],
  listCardTransactions: ["cards", "listTransactions"],
  fundCard: ["cards", "fund"],
  freezeCard: ["cards", "freeze"],
  unfreezeCard: ["cards", "unfreeze"],
  deactivateCard: ["cards", "deactivate"],
  updateCardLimits: ["cards", "updateLimits"],
  // Sandbox test helpers: simulated card-network events
  simulateCardAuthorization: ["cards", "simulateAuthorization"],
  captureCardAuthorization: ["cards", "captureAuthorization"],
  reverseCardAuthorization: ["cards", "reverseAuthorization"],
  // Events and webhook endpoints (verifying a delivery is `webhooks.verify`, sdk/src/webhooks/)
  createWebhookEndpoint: ["webhookEndpoints", "create"],
  listWebhookEndpoints: ["webhookEndpoints", "list"],
  getWebhookEndpoint: ["webhookEndpoints", "retrieve"],
  updateWebhookEndpoint: ["webhookEndpoints", "update"],
  deleteWebhookEndpoint: ["webhookEndpoints", "delete"],
  rotateWebhookEndpointSecret: ["webhookEndpoints", "rotateSecret"],
  sendTestWebhookEvent: ["webhookEndpoints", "sendTestEvent"],
  listWebhookDeliveries: ["webhookEndpoints", "listDeliveries"],
  retryWebhookDelivery: ["webhookEndpoints", "retryDelivery"],
  listEvents: ["events", "list"],
  getEvent: ["events", "retrieve"],
  // Members, sessions, the organization's API keys and audit log (the session scheme: `sessionCookie`)
  createSession: ["sessions", "create"],
  getCurrentSession: ["sessions", "retrieveCurrent"],
  deleteCurrentSession: ["sessions", "deleteCurrent"],
  deleteAllSessions: ["sessions", "deleteAll"],
  verifySessionSecondFactor: ["sessions", "verifySecondFactor"],
  listMembers: ["members", "list"],
  getMember: ["members", "retrieve"],
  updateMember: ["members", "update"],
  deleteMember: ["members", "delete"],
  createMemberInvitation: ["members", "invite"],
  acceptMemberInvitation: ["members", "acceptInvitation"],
  beginTotpEnrollment: ["members", "beginTotpEnrollment"],
  confirmTotpEnrollment: ["members", "confirmTotpEnrollment"],
  disableTotp: ["members", "disableTotp"],
  createApiKey: ["apiKeys", "create"],
  listApiKeys: ["apiKeys", "list"],
  getApiKey: ["apiKeys", "retrieve"],
  revokeApiKey: ["apiKeys", "revoke"],
  listAuditLogEntries: ["auditLog", "list"],
} as const satisfies { readonly [K in keyof operations]?: readonly [string, string] };

export type OperationMap = typeof operationMap;
export type SdkOperationId = keyof OperationMap;
export type NamespaceName = OperationMap[SdkOperationId][0];
