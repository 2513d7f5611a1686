// "Test connection": asks the provider for its models with the stored key and says what came back,
// the models found or the provider's refusal in plain words (the server words it).
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { ErrorDetails } from "@/components/ui/error-details";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { trpc } from "@/lib/trpc";
import type { ProviderConnection } from "./provider-labels.ts";

export interface TestConnectionDialogProps {
  connection: ProviderConnection | null;
  onOpenChange(open: boolean): void;
}

export function TestConnectionDialog({ connection, onOpenChange }: TestConnectionDialogProps) {
  const utils = trpc.useUtils();
  // The connection keeps its last test: the list shows it once the test has answered.
  const test = trpc.providers.test.useMutation({ onSettled: () => utils.providers.list.invalidate() });
  const { mutate, reset } = test;
  const id = connection?.id;
  useEffect(() => {
    reset();
    if (id) mutate({ id });
  }, [id, mutate, reset]);

  const result = test.data;
  return (
    <Dialog open={!!connection} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Test {connection?.name}</DialogTitle>
          <DialogDescription>Asks the provider for its list of models with the stored key.</DialogDescription>
        </DialogHeader>
        <div aria-live="polite" className="grid min-w-0 gap-2" data-testid="connection-test-result">
          {test.isPending || test.isIdle ? (
            <p className="text-sm text-muted-foreground">Asking the provider…</p>
          ) : test.isError ? (
            <p role="alert" className="text-sm text-destructive">
              The test could not run: {test.error.message}
            </p>
          ) : result?.ok ? (
            <>
              <p className="font-medium">
                Connected: {result.models.length} {result.models.length === 1 ? "model" : "models"} found.
              </p>
              {result.models.length > 0 && (
                <ul aria-label="Models found" tabIndex={0} className="grid max-h-60 gap-1 overflow-y-auto rounded-md border p-2 font-mono text-sm">
                  {result.models.map((model) => (
                    <li key={model} className="wrap-anywhere">
                      {model}
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : result ? (
            <div className="text-sm text-destructive wrap-anywhere">
              <p role="alert">{result.message}</p>
              <ErrorDetails detail={result.detail} />
            </div>
          ) : null}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" disabled={test.isPending || !id} onClick={() => id && mutate({ id })}>
            Test again
          </Button>
          <Button type="button" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
