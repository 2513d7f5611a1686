// An action of the prompt page that opens a dialog with a form: the trigger button, the title and
// description, and the form, which closes the dialog when done (its end: FormFooter in components/ui).
import { useState, type ReactNode } from "react";
import type { LucideIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";

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
