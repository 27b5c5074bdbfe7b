-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "manualAttemptCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "manualRetry" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "resumeAttemptAt" TIMESTAMPTZ(3);
