-- CreateTable
CREATE TABLE "online_evaluation_spend" (
    "prompt_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "cost" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "online_evaluation_spend_pkey" PRIMARY KEY ("prompt_id","day")
);

-- AddForeignKey
ALTER TABLE "online_evaluation_spend" ADD CONSTRAINT "online_evaluation_spend_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

