// Confirmation before deleting a provider connection; its key goes with it.
import { useState } from "react";
import { toast } from "sonner";
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
import { trpc } from "@/lib/trpc";
import type { ProviderConnection } from "./provider-labels.ts";

export interface DeleteConnectionDialogProps {
  connection: ProviderConnection | null;
  onOpenChange(open: boolean): void;
}

export function DeleteConnectionDialog({ connection, onOpenChange }: DeleteConnectionDialogProps) {
  const utils = trpc.useUtils();
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = trpc.providers.delete.useMutation({
    async onSuccess() {
      toast.success("Connection deleted", { description: `"${connection?.name}" has been deleted.` });
      await utils.providers.list.invalidate();
      onOpenChange(false);
    },
    onError(error) {
      setRefusal(error.message);
    },
  });
  const busy = remove.isPending;

  return (
    <AlertDialog
      open={!!connection}
      onOpenChange={(open) => {
        if (busy) return;
        setRefusal(null);
        onOpenChange(open);
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {connection?.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            This deletes the connection "{connection?.name}" and its stored API key. Prompts can no longer run on its models. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {refusal && (
          <p role="alert" className="text-sm text-destructive">
            {refusal}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          {/* A plain button, so the dialog stays open until the deletion has finished. */}
          <Button variant="destructive" disabled={busy} onClick={() => connection && remove.mutate({ id: connection.id })}>
            {busy ? "Deleting..." : "Delete connection"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
