// Confirmation before deleting a provider connection; its key goes with it.
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
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

  return (
    <ConfirmDeleteDialog
      open={!!connection}
      onOpenChange={(open) => {
        setRefusal(null);
        onOpenChange(open);
      }}
      title={`Delete ${connection?.name}?`}
      description={`This deletes the connection "${connection?.name}" and its stored API key. Prompts can no longer run on its models. This cannot be undone.`}
      confirmLabel="Delete connection"
      busy={remove.isPending}
      onConfirm={() => connection && remove.mutate({ id: connection.id })}
      refusal={refusal}
    />
  );
}
