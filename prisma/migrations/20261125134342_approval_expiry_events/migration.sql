-- AlterTable
ALTER TABLE "ApprovalRequest" ADD COLUMN     "expirySweptAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "ApprovalRequest_expirySweptAt_expiresAt_idx" ON "ApprovalRequest"("expirySweptAt", "expiresAt");


-- Requests that expired before the sweeper existed: their expiry is history, not news (no event for them).
UPDATE "ApprovalRequest" SET "expirySweptAt" = CURRENT_TIMESTAMP WHERE "expiresAt" <= CURRENT_TIMESTAMP;
