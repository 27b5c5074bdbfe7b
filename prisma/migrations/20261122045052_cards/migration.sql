-- CreateTable
CREATE TABLE "CardProgramme" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "binSponsor" TEXT NOT NULL,
    "jurisdictions" TEXT[],
    "fundingAsset" TEXT NOT NULL,
    "fundingModel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "providerSlug" TEXT NOT NULL,
    "providerReference" TEXT NOT NULL,
    "connectionId" TEXT,
    "simulated" BOOLEAN NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardProgramme_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Cardholder" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phoneNumber" TEXT,
    "dateOfBirth" TEXT,
    "billingAddress" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Cardholder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Card" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "programmeId" TEXT NOT NULL,
    "cardholderId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "last4" TEXT NOT NULL,
    "expMonth" INTEGER NOT NULL,
    "expYear" INTEGER NOT NULL,
    "brand" TEXT NOT NULL,
    "limits" JSONB NOT NULL DEFAULT '{}',
    "providerReference" TEXT NOT NULL,
    "simulated" BOOLEAN NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Card_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardAuthorization" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "cardId" TEXT NOT NULL,
    "programmeId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "declineReason" TEXT,
    "asset" TEXT NOT NULL,
    "amountMinor" DECIMAL(78,0) NOT NULL,
    "capturedMinor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "reversedMinor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "merchantName" TEXT NOT NULL,
    "merchantCategory" TEXT NOT NULL,
    "merchantCity" TEXT,
    "merchantCountry" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardAuthorization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardTransaction" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "cardId" TEXT NOT NULL,
    "authorizationId" TEXT,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "declineReason" TEXT,
    "asset" TEXT NOT NULL,
    "amountMinor" DECIMAL(78,0) NOT NULL,
    "merchantName" TEXT,
    "merchantCategory" TEXT,
    "merchantCity" TEXT,
    "merchantCountry" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardTransaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardLedgerEntry" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "journalId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "programmeId" TEXT NOT NULL,
    "cardId" TEXT,
    "account" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amountMinor" DECIMAL(78,0) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardLedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CardProgramme_organizationId_environment_createdAt_idx" ON "CardProgramme"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CardProgramme_organizationId_environment_name_key" ON "CardProgramme"("organizationId", "environment", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Cardholder_organizationId_environment_email_key" ON "Cardholder"("organizationId", "environment", "email");

-- CreateIndex
CREATE INDEX "Card_organizationId_environment_createdAt_idx" ON "Card"("organizationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "Card_programmeId_idx" ON "Card"("programmeId");

-- CreateIndex
CREATE INDEX "Card_cardholderId_idx" ON "Card"("cardholderId");

-- CreateIndex
CREATE INDEX "CardAuthorization_cardId_createdAt_idx" ON "CardAuthorization"("cardId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CardTransaction_seq_key" ON "CardTransaction"("seq");

-- CreateIndex
CREATE INDEX "CardTransaction_cardId_seq_idx" ON "CardTransaction"("cardId", "seq");

-- CreateIndex
CREATE INDEX "CardTransaction_authorizationId_idx" ON "CardTransaction"("authorizationId");

-- CreateIndex
CREATE INDEX "CardLedgerEntry_organizationId_environment_account_idx" ON "CardLedgerEntry"("organizationId", "environment", "account");

-- CreateIndex
CREATE INDEX "CardLedgerEntry_cardId_idx" ON "CardLedgerEntry"("cardId");

-- CreateIndex
CREATE INDEX "CardLedgerEntry_journalId_idx" ON "CardLedgerEntry"("journalId");

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_programmeId_fkey" FOREIGN KEY ("programmeId") REFERENCES "CardProgramme"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_cardholderId_fkey" FOREIGN KEY ("cardholderId") REFERENCES "Cardholder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardAuthorization" ADD CONSTRAINT "CardAuthorization_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardTransaction" ADD CONSTRAINT "CardTransaction_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

