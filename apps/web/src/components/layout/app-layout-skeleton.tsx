// The protected area's loading state: kept apart from the layout so the layout can load lazily.
/** Shown while the session loads (protected area). */
export function AppLayoutSkeleton() {
  return (
    <div className="flex min-h-svh w-full" aria-busy="true" aria-label="Loading">
      <div className="hidden w-64 shrink-0 border-r border-border bg-sidebar p-3 md:block">
        <div className="mb-6 h-8 w-32 animate-pulse rounded-md bg-muted" />
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="mb-2 h-8 animate-pulse rounded-md bg-muted" />
        ))}
      </div>
      <div className="flex flex-1 flex-col">
        <div className="flex h-14 items-center gap-3 border-b border-border px-4">
          <div className="h-8 w-40 animate-pulse rounded-md bg-muted" />
          <div className="ml-auto size-8 animate-pulse rounded-full bg-muted" />
        </div>
        <div className="grid gap-4 p-6 md:grid-cols-4">
          {Array.from({ length: 4 }, (_, index) => (
            <div key={index} className="h-28 animate-pulse rounded-xl bg-muted" />
          ))}
        </div>
      </div>
    </div>
  );
}
