// How an evaluation's states and figures read: status badges of evaluations and of their items, pass rates.
import type { EvaluationStatus } from "@promptly/shared";
import { Badge, type BadgeVariant } from "@/components/ui/badge";

const EVALUATION_STATUS: Record<EvaluationStatus, { label: string; variant: BadgeVariant }> = {
  queued: { label: "Queued", variant: "outline" },
  running: { label: "Running", variant: "outline" },
  done: { label: "Done", variant: "secondary" },
  failed: { label: "Failed", variant: "destructive" },
  cancelled: { label: "Cancelled", variant: "outline" },
};

export const isActive = (status: EvaluationStatus) => status === "queued" || status === "running";

export function EvaluationStatusBadge({ status }: { status: EvaluationStatus }) {
  const { label, variant } = EVALUATION_STATUS[status];
  return (
    <Badge variant={variant} data-status={status}>
      {label}
    </Badge>
  );
}

type ItemStatus = "pending" | "passed" | "failed" | "error" | "cancelled";

const ITEM_STATUS: Record<ItemStatus, { label: string; variant: BadgeVariant; className?: string }> = {
  pending: { label: "Pending", variant: "outline" },
  passed: { label: "Passed", variant: "outline", className: "border-green-600/40 text-green-800 dark:text-green-300" },
  failed: { label: "Failed", variant: "destructive" },
  error: { label: "Error", variant: "destructive" },
  cancelled: { label: "Cancelled", variant: "outline" },
};

export function ItemStatusBadge({ status }: { status: ItemStatus }) {
  const { label, variant, className } = ITEM_STATUS[status];
  return (
    <Badge variant={variant} className={className} data-status={status}>
      {label}
    </Badge>
  );
}

/** 70 %, 66.6 % (the server's one decimal); "–" when no case was judged (every one could not run). */
export const formatPassRate = (passRate: number | null) => (passRate === null ? "–" : `${passRate.toLocaleString("en-US", { maximumFractionDigits: 1 })} %`);
