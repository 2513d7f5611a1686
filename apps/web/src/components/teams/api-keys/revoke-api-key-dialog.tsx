// Revoking a key asks first: the programs that use it stop working at once, and it cannot be undone.
import { useRef } from "react";
import { toast } from "sonner";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import type { ApiKey } from "./api-key-types.ts";

export function RevokeApiKeyDialog(props: {
  teamId: string;
  apiKey: ApiKey;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Where focus goes once the key is revoked: the opener, its row's Revoke button, is about to go. */
  onRevoked(): void;
}) {
  const { teamId, apiKey, open, onOpenChange, onRevoked } = props;
  const utils = trpc.useUtils();
  const revoked = useRef(false);
  const revoke = trpc.apiKeys.revoke.useMutation({
    async onSuccess() {
      revoked.current = true;
      toast.success("API key revoked", { description: `${apiKey.name} no longer works.` });
      onOpenChange(false);
      await utils.apiKeys.list.invalidate({ teamId });
    },
    onError(error) {
      toast.error("Failed to revoke the API key", { description: error.message });
    },
  });
  const busy = revoke.isPending;
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialogContent
        onOpenAutoFocus={() => {
          revoked.current = false;
        }}
        onCloseAutoFocus={(event) => {
          if (!revoked.current) return;
          event.preventDefault();
          onRevoked();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke API key</AlertDialogTitle>
          <AlertDialogDescription className="wrap-anywhere">Programs using {apiKey.name} stop working at once.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={busy} onClick={() => revoke.mutate({ id: apiKey.id })}>
            {busy ? "Revoking..." : "Revoke key"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
