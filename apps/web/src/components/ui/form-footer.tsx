// The end of a dialog's form: the server's refusal, Cancel, and the submit button ('Saving...' while busy).
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";

export interface FormFooterProps {
  /** The server's refusal, shown above the buttons. */
  serverError?: string | null;
  busy: boolean;
  submitLabel: string;
  submitDisabled?: boolean;
  /** Why the submit button is disabled (its tooltip) when `submitDisabled`. */
  submitDisabledReason?: string;
  onCancel: () => void;
}

/** The end of an action's form: the server's refusal, Cancel, and the submit button ('Saving...' while busy). */
export function FormFooter({ serverError, busy, submitLabel, submitDisabled = false, submitDisabledReason, onCancel }: FormFooterProps) {
  return (
    <>
      {serverError && (
        <Alert variant="destructive">
          <AlertDescription>{serverError}</AlertDescription>
        </Alert>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || submitDisabled} disabledReason={!busy && submitDisabled ? submitDisabledReason : undefined}>
          {busy ? "Saving..." : submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
