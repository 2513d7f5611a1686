-- Change requests of a second kind: archiving a prompt that carries 'production'.

-- CreateEnum
CREATE TYPE "change_request_kind" AS ENUM ('label', 'archive');

-- AlterTable
ALTER TABLE "change_requests" ADD COLUMN     "kind" "change_request_kind" NOT NULL DEFAULT 'label',
ALTER COLUMN "proposed_version" DROP NOT NULL;


-- A label request proposes a version; an archive request proposes none. Existing rows are label requests.
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_proposed_by_kind"
  CHECK (("kind" = 'label') = ("proposed_version" IS NOT NULL));
