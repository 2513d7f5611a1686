// What the person may do with the prompt, as the server's `can` says: an archived prompt can only be
// restored or deleted.
import { Link } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ArchiveButton } from "./archive-button.tsx";
import { DeletePromptDialog } from "./delete-prompt-dialog.tsx";
import { EditDetailsDialog } from "./edit-details-dialog.tsx";
import { RenameDialog } from "./rename-dialog.tsx";
import { SetLabelDialog } from "./set-label-dialog.tsx";
import { SplitProductionDialog, maySplitProduction } from "./split-production-dialog.tsx";
import type { PromptDetail } from "./types.ts";
import { UseInCodeButton } from "../use-in-code/use-in-code-button.tsx";

export function PromptActions({ prompt }: { prompt: PromptDetail }) {
  const { can } = prompt;
  const active = prompt.archivedAt === null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="prompt-actions">
      {active && <UseInCodeButton prompt={prompt} />}
      {active && can.write && (
        <Button asChild size="sm">
          <Link to="/prompts/$promptId/new-version" params={{ promptId: prompt.id }}>
            <Plus aria-hidden="true" />
            New version
          </Link>
        </Button>
      )}
      {active && can.write && <SetLabelDialog prompt={prompt} />}
      {maySplitProduction(prompt) && <SplitProductionDialog prompt={prompt} />}
      {active && can.write && <EditDetailsDialog prompt={prompt} />}
      {active && can.rename && <RenameDialog prompt={prompt} />}
      {can.archive && <ArchiveButton prompt={prompt} />}
      {!active && can.delete && <DeletePromptDialog prompt={prompt} />}
    </div>
  );
}
