-- AlterTable
ALTER TABLE "Card" ALTER COLUMN "cardholderId" DROP NOT NULL;

