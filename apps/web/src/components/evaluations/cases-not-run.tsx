// The cases of an evaluation that could not run (the provider could not be reached, a case broke the
// prompt's contract): how many, the first one's reason, and "Retry cases in error" for those who may
// start evaluations, once the evaluation has ended (a cancelled one is not retried: a new one is run).
import { RotateCcw, TriangleAlert } from "lucide-react";
import { toast } from "sonner";
import { EVALUATION_MSG, type EvaluationStatus } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { trpc } from "@/lib/trpc";
import { isActive } from "./evaluation-format.tsx";

interface CasesNotRunProps {
  evaluation: { id: string; status: EvaluationStatus; errors: number; firstError: string | null };
  canRetry: boolean;
  /** One line, clipped (the list); the page shows the reason whole. */
  compact?: boolean;
}

export function CasesNotRun({ evaluation, canRetry, compact = false }: CasesNotRunProps) {
  if (evaluation.errors === 0) return null;
  const retryable = canRetry && !isActive(evaluation.status) && evaluation.status !== "cancelled";
  return (
    <div className={cn("flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1.5 text-sm", !compact && "rounded-lg border border-destructive/40 px-3 py-2")} data-testid="cases-not-run">
      <p className={cn("flex min-w-0 flex-1 items-start gap-1.5 text-destructive", compact && "basis-48")}>
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span className={cn("min-w-0 wrap-anywhere", compact && "line-clamp-2")} title={compact ? (evaluation.firstError ?? undefined) : undefined}>
          <span className="font-medium">{EVALUATION_MSG.casesCouldNotRun(evaluation.errors)}</span>
          {evaluation.firstError && <span>: {evaluation.firstError}</span>}
        </span>
      </p>
      {retryable && <RetryErrorsButton id={evaluation.id} errors={evaluation.errors} />}
    </div>
  );
}

function RetryErrorsButton({ id, errors }: { id: string; errors: number }) {
  const utils = trpc.useUtils();
  const retry = trpc.evaluations.retryErrors.useMutation({
    async onSuccess(next) {
      toast.success(errors === 1 ? "Running the case in error again" : `Running the ${errors.toLocaleString("en-US")} cases in error again`);
      utils.evaluations.get.setData({ id: next.id }, next);
      await utils.evaluations.invalidate();
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={retry.isPending}
      onClick={(event) => {
        // In the list the row opens the evaluation: the button does only its own work.
        event.stopPropagation();
        retry.mutate({ id });
      }}
    >
      <RotateCcw aria-hidden="true" />
      {retry.isPending ? "Retrying..." : "Retry cases in error"}
    </Button>
  );
}
