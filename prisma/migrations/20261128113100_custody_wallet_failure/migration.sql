-- AlterTable
ALTER TABLE "CustodyWallet" ADD COLUMN     "failureReason" JSONB;
