-- CreateTable
CREATE TABLE "prompt_dependencies" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "parent_version_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "child_name" TEXT NOT NULL,
    "child_label" TEXT,
    "child_version" INTEGER,

    CONSTRAINT "prompt_dependencies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "prompt_dependencies_parent_version_id_idx" ON "prompt_dependencies"("parent_version_id");

-- CreateIndex
CREATE INDEX "prompt_dependencies_team_id_child_name_idx" ON "prompt_dependencies"("team_id", "child_name");

-- AddForeignKey
ALTER TABLE "prompt_dependencies" ADD CONSTRAINT "prompt_dependencies_parent_version_id_fkey" FOREIGN KEY ("parent_version_id") REFERENCES "prompt_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_dependencies" ADD CONSTRAINT "prompt_dependencies_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- An include names its prompt by a label or by a version, never both, never neither.
ALTER TABLE "prompt_dependencies" ADD CONSTRAINT "prompt_dependencies_label_or_version"
  CHECK ((child_label IS NULL) <> (child_version IS NULL));
