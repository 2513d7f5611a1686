// A run's status as a badge: a failure stands out, a stop is quiet.
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { RUN_STATUS_LABELS, type RunStatus } from "./run-format.ts";

const VARIANTS: Record<RunStatus, BadgeVariant> = { succeeded: "secondary", failed: "destructive", stopped: "outline" };

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <Badge variant={VARIANTS[status]}>{RUN_STATUS_LABELS[status]}</Badge>;
}
