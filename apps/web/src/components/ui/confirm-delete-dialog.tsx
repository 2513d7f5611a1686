// The confirmation before a deletion: what goes, Cancel, and a destructive button that keeps the dialog
// open (and every way out closed) until the deletion has finished.
import type { ReactNode } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

export interface ConfirmDeleteDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: ReactNode;
  /** The destructive button's label ('Deleting...' while busy). */
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  /** The server's refusal, shown above the buttons. */
  refusal?: string | null;
}

export function ConfirmDeleteDialog({ open, onOpenChange, title, description, confirmLabel, busy, onConfirm, refusal }: ConfirmDeleteDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {refusal && (
          <p role="alert" className="text-sm text-destructive">
            {refusal}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          {/* A plain button, so the dialog stays open until the deletion has finished. */}
          <Button variant="destructive" disabled={busy} onClick={onConfirm}>
            {busy ? "Deleting..." : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
