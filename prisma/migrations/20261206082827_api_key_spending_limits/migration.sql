-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "spendingLimited" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ApiKeySpendingLimit" (
    "apiKeyId" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "perCall" DECIMAL(38,18),
    "per24h" DECIMAL(38,18),

    CONSTRAINT "ApiKeySpendingLimit_pkey" PRIMARY KEY ("apiKeyId","asset")
);

-- CreateTable
CREATE TABLE "ApiKeySpend" (
    "id" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amount" DECIMAL(38,18) NOT NULL,
    "idempotencyKey" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiKeySpend_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ApiKeySpend_apiKeyId_asset_createdAt_idx" ON "ApiKeySpend"("apiKeyId", "asset", "createdAt");

-- CreateIndex
CREATE INDEX "ApiKeySpend_createdAt_idx" ON "ApiKeySpend"("createdAt");

