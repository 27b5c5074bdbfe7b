-- CreateTable
CREATE TABLE "SimBankTransfer" (
    "idempotencyKey" TEXT NOT NULL,
    "providerTransferId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SimBankTransfer_pkey" PRIMARY KEY ("idempotencyKey")
);

-- CreateTable
CREATE TABLE "ProviderIntent" (
    "id" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "idempotencyRecordId" TEXT,
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseToken" TEXT NOT NULL,
    "leaseUntil" TIMESTAMPTZ(3) NOT NULL,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProviderIntent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProviderIntent_dueAt_idx" ON "ProviderIntent"("dueAt");

-- CreateIndex
CREATE INDEX "ProviderIntent_idempotencyRecordId_idx" ON "ProviderIntent"("idempotencyRecordId");

