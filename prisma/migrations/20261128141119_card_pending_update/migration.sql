-- AlterTable
ALTER TABLE "Card" ADD COLUMN     "pendingUpdate" JSONB;

