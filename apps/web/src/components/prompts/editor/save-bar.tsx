// The end of the editor: the commit message, Cancel and the save button.
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

interface SaveBarProps {
  commitMessage: string;
  onCommitMessage(commitMessage: string): void;
  commitMessageError?: string;
  commitMessagePlaceholder: string;
  /** "Create prompt" or "Save version". */
  saveLabel: string;
  savingLabel: string;
  saving: boolean;
  blocked: boolean;
  /** A link back, styled as a button. */
  cancel: ReactNode;
}

export function SaveBar({ commitMessage, onCommitMessage, commitMessageError, commitMessagePlaceholder, saveLabel, savingLabel, saving, blocked, cancel }: SaveBarProps) {
  return (
    <div className="grid gap-4">
      <FormField label="Commit message" description="What this version changes (optional)." error={commitMessageError}>
        <Input autoComplete="off" placeholder={commitMessagePlaceholder} value={commitMessage} onChange={(e) => onCommitMessage(e.target.value)} />
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" disabled={saving || blocked}>
          {saving ? savingLabel : saveLabel}
        </Button>
      </div>
    </div>
  );
}
