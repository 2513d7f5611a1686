// An action of the prompt page that opens a dialog with a form: the trigger button, the title and
// description, and the form, which closes the dialog when done.
import { useState, type ReactNode } from "react";
import type { LucideIcon } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";

interface ActionDialogProps {
  label: string;
  /** The trigger's accessible name, when the label alone does not say what it acts on. */
  triggerName?: string;
  icon: LucideIcon;
  title: string;
  description: string;
  scrolls?: boolean;
  children: (close: () => void) => ReactNode;
}

export function ActionDialog({ label, triggerName, icon: Icon, title, description, scrolls = false, children }: ActionDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={triggerName}>
          <Icon aria-hidden="true" />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent className={scrolls ? "max-h-[90svh] overflow-y-auto" : undefined}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children(() => setOpen(false))}
      </DialogContent>
    </Dialog>
  );
}

interface FormFooterProps {
  /** The server's refusal, shown above the buttons. */
  serverError?: string;
  busy: boolean;
  submitLabel: string;
  submitDisabled?: boolean;
  onCancel: () => void;
}

/** The end of an action's form: the server's refusal, Cancel, and the submit button ('Saving...' while busy). */
export function FormFooter({ serverError, busy, submitLabel, submitDisabled = false, onCancel }: FormFooterProps) {
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
        <Button type="submit" disabled={busy || submitDisabled}>
          {busy ? "Saving..." : submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
