-- AlterTable
ALTER TABLE "CardProgramme" ADD COLUMN     "failureReason" TEXT;

-- CreateTable
CREATE TABLE "SimCardIssuerCall" (
    "idempotencyKey" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SimCardIssuerCall_pkey" PRIMARY KEY ("idempotencyKey")
);
