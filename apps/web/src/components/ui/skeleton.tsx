import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="skeleton" aria-hidden="true" className={cn("animate-pulse rounded-md bg-muted", className)} {...props} />;
}

/** Two table rows still loading, announced as busy with what they stand for ("Loading members"): a status, so the name is allowed (axe: aria-prohibited-attr on a bare div). */
export function SkeletonRows({ label }: { label: string }) {
  return (
    <div role="status" className="grid gap-2" aria-busy="true" aria-label={label}>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}
