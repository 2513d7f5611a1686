// The router's generic fallback: 'Unexpected Application Error!' with the message, and the
// stack in development. A request that never reached the server is no defect of the page: it gets
// the page that says Promptly cannot reach its server and keeps trying.
import type { ErrorComponentProps } from "@tanstack/react-router";
import { Link, useRouter } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { Button } from "@/components/ui/button";
import { serverNotReached } from "@/lib/read-failure";
import { ServerUnreachable } from "./server-unreachable.tsx";

export function ErrorFallback({ error, reset }: ErrorComponentProps) {
  if (error instanceof TRPCClientError && serverNotReached(error)) return <ServerUnreachable reset={reset} />;
  return <DefectFallback error={error} reset={reset} />;
}

function DefectFallback({ error, reset }: Pick<ErrorComponentProps, "error" | "reset">) {
  const router = useRouter();
  const message = error instanceof Error ? error.message : String(error);
  const stack = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <main role="alert" className="mx-auto flex min-h-svh max-w-3xl flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
      <p data-testid="error-message" className="font-mono text-sm text-destructive">
        {message}
      </p>
      {stack && (
        <pre data-testid="error-stack" className="max-h-96 overflow-auto rounded-md bg-muted p-4 text-xs">
          {stack}
        </pre>
      )}
      <div className="flex gap-2">
        <Button
          variant="outline"
          onClick={async () => {
            // Loaders run again (a failed one may succeed now), then the page renders afresh.
            await router.invalidate();
            reset();
          }}
        >
          Try again
        </Button>
        <Button asChild variant="ghost">
          <Link to="/" reloadDocument>
            Return to Home
          </Link>
        </Button>
      </div>
    </main>
  );
}
