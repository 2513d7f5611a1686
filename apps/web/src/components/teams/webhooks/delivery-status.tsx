// A delivery's outcome as a badge: Delivered (with the answer code), Retrying or Failed.
import { Badge } from "@/components/ui/badge";

export function DeliveryStatus({ status, statusCode }: { status: "pending" | "succeeded" | "failed"; statusCode: number | null }) {
  const code = statusCode === null ? "" : ` (${statusCode})`;
  if (status === "succeeded") return <Badge variant="secondary">Delivered{code}</Badge>;
  if (status === "failed") return <Badge variant="destructive">Failed{code}</Badge>;
  // Answered but not delivered yet: it is tried again.
  if (statusCode !== null) return <Badge variant="outline">Retrying{code}</Badge>;
  return <Badge variant="outline">Pending</Badge>;
}
