-- CreateTable
CREATE TABLE "ContractProject" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "tokenName" TEXT NOT NULL,
    "decimals" INTEGER NOT NULL,
    "network" TEXT NOT NULL,
    "contractName" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceSha256" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "artifact" JSONB,
    "deployment" JSONB,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContractProject_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContractStageRun" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "output" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContractStageRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxChainTransaction" (
    "seq" INTEGER NOT NULL,
    "blockNumber" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "rawTx" TEXT NOT NULL,
    "fromAddress" TEXT NOT NULL,
    "toAddress" TEXT,
    "contractAddress" TEXT,
    "projectId" TEXT,
    "description" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxChainTransaction_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "Issuer" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "contractAddress" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "decimals" INTEGER NOT NULL,
    "signers" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Issuer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssuanceRequest" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "issuerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amountMinor" DECIMAL(78,0) NOT NULL,
    "signerAddress" TEXT NOT NULL,
    "toAddress" TEXT,
    "fromAddress" TEXT,
    "reason" TEXT,
    "approvalRequestId" TEXT NOT NULL,
    "requestedByActor" TEXT NOT NULL,
    "requestedByKeyId" TEXT NOT NULL,
    "simulated" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "IssuanceRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ContractProject_organizationId_environment_createdAt_idx" ON "ContractProject"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "ContractStageRun_projectId_stage_createdAt_idx" ON "ContractStageRun"("projectId", "stage", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SandboxChainTransaction_blockNumber_key" ON "SandboxChainTransaction"("blockNumber");

-- CreateIndex
CREATE UNIQUE INDEX "SandboxChainTransaction_hash_key" ON "SandboxChainTransaction"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "Issuer_projectId_key" ON "Issuer"("projectId");

-- CreateIndex
CREATE INDEX "Issuer_organizationId_environment_createdAt_idx" ON "Issuer"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "IssuanceRequest_approvalRequestId_key" ON "IssuanceRequest"("approvalRequestId");

-- CreateIndex
CREATE INDEX "IssuanceRequest_organizationId_environment_createdAt_idx" ON "IssuanceRequest"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "IssuanceRequest_issuerId_createdAt_idx" ON "IssuanceRequest"("issuerId", "createdAt");

