// The not-found page: any path outside the route table.
import { Link } from "@tanstack/react-router";
import { Button } from "@/components/ui/button";

/** The message and link; inside a layout (e.g. /settings/unknown) it fills the layout's main area. */
export function NotFoundPage() {
  return (
    <div className="flex min-h-[60svh] flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-6xl font-bold text-muted-foreground" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <Button asChild>
        <Link to="/">Return to Home</Link>
      </Button>
    </div>
  );
}

/** At the top level there is no layout: the page is the main landmark. */
export function RootNotFoundPage() {
  return (
    <main className="flex min-h-svh items-center justify-center">
      <NotFoundPage />
    </main>
  );
}
