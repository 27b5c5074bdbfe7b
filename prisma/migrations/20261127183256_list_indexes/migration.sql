-- Cursor lists (server/db/newest-first-page.ts) page newest first on (createdAt, id) within an organization and
-- environment: every listed table's index ends in (createdAt, id), so a page after a cursor is one index range scan.

-- DropIndex
DROP INDEX "CardProgramme_organizationId_environment_createdAt_idx";

-- DropIndex
DROP INDEX "Card_organizationId_environment_createdAt_idx";

-- DropIndex
DROP INDEX "Card_programmeId_idx";

-- DropIndex
DROP INDEX "ContractProject_organizationId_environment_createdAt_idx";

-- DropIndex
DROP INDEX "IssuanceRequest_organizationId_environment_createdAt_idx";

-- DropIndex
DROP INDEX "BankTransfer_organizationId_environment_createdAt_idx";

-- DropIndex
DROP INDEX "CustodyWallet_organizationId_environment_createdAt_idx";

-- DropIndex
DROP INDEX "CustodyTransfer_organizationId_environment_createdAt_idx";

-- DropIndex
DROP INDEX "CustodyTransfer_walletId_createdAt_idx";

-- DropIndex
DROP INDEX "ApprovalRequest_organizationId_environment_createdAt_idx";

-- CreateIndex
CREATE INDEX "CardProgramme_organizationId_environment_createdAt_id_idx" ON "CardProgramme"("organizationId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Card_organizationId_environment_createdAt_id_idx" ON "Card"("organizationId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Card_programmeId_createdAt_id_idx" ON "Card"("programmeId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ContractProject_organizationId_environment_createdAt_id_idx" ON "ContractProject"("organizationId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "IssuanceRequest_organizationId_environment_createdAt_id_idx" ON "IssuanceRequest"("organizationId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BankTransfer_organizationId_environment_createdAt_id_idx" ON "BankTransfer"("organizationId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CustodyWallet_organizationId_environment_createdAt_id_idx" ON "CustodyWallet"("organizationId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CustodyTransfer_organizationId_environment_createdAt_id_idx" ON "CustodyTransfer"("organizationId", "environment", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CustodyTransfer_walletId_createdAt_id_idx" ON "CustodyTransfer"("walletId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ApprovalRequest_organizationId_environment_createdAt_id_idx" ON "ApprovalRequest"("organizationId", "environment", "createdAt", "id");

