-- AlterTable
ALTER TABLE "Member" ADD COLUMN     "totpLastStep" INTEGER;

