// The prompt page while it loads.
import { Skeleton } from "@/components/ui/skeleton";

export function PromptPageSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-4" role="status" aria-label="Loading prompt">
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="h-5 w-1/2" />
      <Skeleton className="h-9 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
