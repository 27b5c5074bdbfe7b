-- AlterTable
ALTER TABLE "CustodyTransfer" ADD COLUMN     "amountGiven" JSONB;

