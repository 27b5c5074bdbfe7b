-- CreateIndex
CREATE INDEX "Card_organizationId_environment_status_createdAt_id_idx" ON "Card"("organizationId", "environment", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BankTransfer_organizationId_environment_status_createdAt_id_idx" ON "BankTransfer"("organizationId", "environment", "status", "createdAt", "id");

