-- AlterTable
ALTER TABLE "change_requests" ADD COLUMN     "base_candidate_version" INTEGER,
ADD COLUMN     "base_candidate_weight" INTEGER;

-- Written by hand: a request still waiting was made on the label as it is now when its base version is
-- still the label's version, so it keeps the label's split as its base and stays as open as it was.
UPDATE "change_requests" cr
SET "base_candidate_version" = pl."candidate_version", "base_candidate_weight" = pl."candidate_weight"
FROM "prompt_labels" pl
WHERE pl."prompt_id" = cr."prompt_id" AND pl."name" = cr."label" AND cr."status" = 'open' AND cr."base_version" = pl."version";
