-- CreateTable
CREATE TABLE "ComplianceDecision" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "reasons" JSONB NOT NULL DEFAULT '[]',
    "subject" JSONB NOT NULL DEFAULT '{}',
    "operation" TEXT NOT NULL,
    "requestId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ComplianceDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalRequest" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "payloadHash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requestedByActor" TEXT NOT NULL,
    "requestedByKeyId" TEXT NOT NULL,
    "decidedByActor" TEXT,
    "decidedByKeyId" TEXT,
    "decisionReason" TEXT,
    "decidedAt" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "consumedAt" TIMESTAMPTZ(3),
    "resourceId" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApprovalRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SelectionReceipt" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "operation" TEXT,
    "providerSlug" TEXT NOT NULL,
    "connectionId" TEXT,
    "simulated" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SelectionReceipt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProviderInvocation" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "providerSlug" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "output" JSONB,
    "status" TEXT NOT NULL,
    "simulated" BOOLEAN NOT NULL,
    "selectionReceiptId" TEXT,
    "approvalRequestId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProviderInvocation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ComplianceDecision_organizationId_environment_createdAt_idx" ON "ComplianceDecision"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "ApprovalRequest_organizationId_environment_createdAt_idx" ON "ApprovalRequest"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "SelectionReceipt_organizationId_environment_createdAt_idx" ON "SelectionReceipt"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "ProviderInvocation_organizationId_environment_createdAt_idx" ON "ProviderInvocation"("organizationId", "environment", "createdAt");

