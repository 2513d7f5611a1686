// The end of the editor: the commit message, then Cancel and the save button in a bar that stays at the
// bottom of the screen while the form scrolls (phones too). Ctrl+S (Cmd+S on a Mac) saves like the button.
import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

/** Why the save button is disabled, on its tooltip. */
export const SAVE_BLOCKED = {
  template: "Fix the template's errors listed above first",
  config: "Fix the Config field first: it must be a JSON object of model parameters",
  nameTaken: "This name is taken in the team: choose another first",
} as const;

interface SaveBarProps {
  commitMessage: string;
  onCommitMessage(commitMessage: string): void;
  commitMessageError?: string;
  commitMessagePlaceholder: string;
  /** "Create prompt" or "Save version". */
  saveLabel: string;
  savingLabel: string;
  saving: boolean;
  /** Why it cannot save now (shown on the disabled button); undefined when it can. */
  blockedReason?: string;
  /** A link back, styled as a button. */
  cancel: ReactNode;
}

/** Ctrl+S / Cmd+S submits the save button's form (never the browser's "Save page"), unless it cannot save now. */
function useSaveShortcut(button: RefObject<HTMLButtonElement | null>) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== "s") return;
      const submit = button.current;
      if (!submit?.form) return;
      event.preventDefault();
      if (!submit.disabled && submit.getAttribute("aria-disabled") !== "true") submit.form.requestSubmit(submit);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [button]);
}

/** Two children of the form: the bar must be the form's own child to stay stuck while all of it scrolls. */
export function SaveBar({ commitMessage, onCommitMessage, commitMessageError, commitMessagePlaceholder, saveLabel, savingLabel, saving, blockedReason, cancel }: SaveBarProps) {
  const button = useRef<HTMLButtonElement>(null);
  useSaveShortcut(button);
  return (
    <>
      <FormField label="Commit message" description="What this version changes (optional)." error={commitMessageError}>
        <Input autoComplete="off" placeholder={commitMessagePlaceholder} value={commitMessage} onChange={(e) => onCommitMessage(e.target.value)} />
      </FormField>
      <div
        data-testid="save-bar"
        className="sticky bottom-0 z-10 -mx-4 flex items-center justify-end gap-2 border-t border-border bg-background/95 px-4 py-3 backdrop-blur md:-mx-6 md:px-6"
      >
        <span className="mr-auto hidden text-xs text-muted-foreground sm:inline" aria-hidden="true">
          Ctrl+S or ⌘S saves
        </span>
        {cancel}
        <Button ref={button} type="submit" disabled={saving || !!blockedReason} disabledReason={saving ? undefined : blockedReason} aria-keyshortcuts="Control+S Meta+S">
          {saving ? savingLabel : saveLabel}
        </Button>
      </div>
    </>
  );
}
