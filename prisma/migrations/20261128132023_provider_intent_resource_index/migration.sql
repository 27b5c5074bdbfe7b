-- CreateIndex
CREATE INDEX "ProviderIntent_resourceId_idx" ON "ProviderIntent"("resourceId");

