-- CreateTable
CREATE TABLE "BankTransfer" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "amountMinor" DECIMAL(38,0) NOT NULL,
    "currency" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "source" JSONB NOT NULL,
    "destination" JSONB NOT NULL,
    "reference" TEXT,
    "purposeCode" TEXT,
    "jurisdiction" TEXT[],
    "operatorJurisdiction" TEXT,
    "senderJurisdiction" TEXT NOT NULL,
    "receiverJurisdiction" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "connectionId" TEXT,
    "simulated" BOOLEAN NOT NULL,
    "providerTransferId" TEXT,
    "providerReference" TEXT,
    "statusHistory" JSONB NOT NULL,
    "failureReason" JSONB,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BankTransfer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowRun" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "executionMode" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "payoutCurrency" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "reference" TEXT,
    "request" JSONB NOT NULL,
    "simulated" BOOLEAN NOT NULL,
    "nextRunAt" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowStep" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "provider" TEXT,
    "simulated" BOOLEAN NOT NULL,
    "stepKey" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "output" JSONB,
    "error" JSONB,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustodyWallet" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "policy" JSONB,
    "address" TEXT,
    "approvalRequestId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "connectionId" TEXT,
    "providerWalletId" TEXT,
    "simulated" BOOLEAN NOT NULL,
    "jurisdiction" TEXT[],
    "operatorJurisdiction" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CustodyWallet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustodyTransfer" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "walletId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amountMinor" DECIMAL(78,0) NOT NULL,
    "note" TEXT,
    "approvalRequestId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "connectionId" TEXT,
    "providerTransferId" TEXT,
    "txHash" TEXT,
    "failureReason" JSONB,
    "simulated" BOOLEAN NOT NULL,
    "jurisdiction" TEXT[],
    "operatorJurisdiction" TEXT,
    "senderJurisdiction" TEXT,
    "receiverJurisdiction" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CustodyTransfer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SimCustodyWallet" (
    "id" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SimCustodyWallet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SimCustodyTransfer" (
    "id" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "providerWalletId" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amountMinor" DECIMAL(78,0) NOT NULL,
    "destination" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "pendingReads" INTEGER NOT NULL DEFAULT 0,
    "outcome" TEXT,
    "failReads" BOOLEAN NOT NULL DEFAULT false,
    "txHash" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SimCustodyTransfer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BankTransfer_organizationId_environment_createdAt_idx" ON "BankTransfer"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "WorkflowRun_organizationId_environment_createdAt_idx" ON "WorkflowRun"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "WorkflowRun_status_nextRunAt_idx" ON "WorkflowRun"("status", "nextRunAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowStep_stepKey_key" ON "WorkflowStep"("stepKey");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowStep_runId_position_key" ON "WorkflowStep"("runId", "position");

-- CreateIndex
CREATE INDEX "CustodyWallet_organizationId_environment_createdAt_idx" ON "CustodyWallet"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "CustodyTransfer_organizationId_environment_createdAt_idx" ON "CustodyTransfer"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "CustodyTransfer_walletId_createdAt_idx" ON "CustodyTransfer"("walletId", "createdAt");

-- CreateIndex
CREATE INDEX "CustodyTransfer_organizationId_environment_providerTransfer_idx" ON "CustodyTransfer"("organizationId", "environment", "providerTransferId");

-- CreateIndex
CREATE UNIQUE INDEX "SimCustodyWallet_idempotencyKey_key" ON "SimCustodyWallet"("idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "SimCustodyTransfer_idempotencyKey_key" ON "SimCustodyTransfer"("idempotencyKey");

-- CreateIndex
CREATE INDEX "SimCustodyTransfer_providerWalletId_asset_idx" ON "SimCustodyTransfer"("providerWalletId", "asset");

-- AddForeignKey
ALTER TABLE "WorkflowStep" ADD CONSTRAINT "WorkflowStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "WorkflowRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

