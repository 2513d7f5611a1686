-- AlterEnum
ALTER TYPE "api_key_scope" ADD VALUE 'run';

