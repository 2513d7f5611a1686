// A load that failed says so: what could not be loaded, whether the server failed or could
// not be reached, that it is being retried, and Try again. Never a permission message it was not
// given, never an empty state.
import { useState } from "react";
import { AlertCircle, RefreshCw } from "lucide-react";
import { TRPCClientError } from "@trpc/client";
import type { ErrorComponentProps } from "@tanstack/react-router";
import { useRouter } from "@tanstack/react-router";
import { Button } from "@/components/ui/button";
import { retryingLabel } from "@/lib/read-failure";
import { cn } from "@/lib/utils";
import { ErrorFallback } from "./error-fallback.tsx";

interface FailedRequest {
  message?: string;
  data?: { httpStatus?: number } | null;
}

/** Why it failed, in words a person can act on. */
function failureDetail(error: unknown): string {
  const status = (error as FailedRequest | null)?.data?.httpStatus;
  if (status === undefined) return "Promptly could not be reached. Check your connection, then try again.";
  return "Something went wrong on our side. Nothing was changed; try again in a moment.";
}

export interface LoadFailureProps {
  /** What could not be loaded, as a sentence: "The teams could not be loaded". */
  title: string;
  /** The spec's own words where it has them; else why it failed, from the error. */
  description?: string;
  error: unknown;
  onRetry(): unknown;
  /** While the read is asked again: the automatic retry under way, 0 for a new attempt (see readFailure). */
  retrying?: number | null;
  /** A whole page's failure gets a heading (h1, or h2 under a layout's own h1); a card's or a tab's a line. */
  heading?: "h1" | "h2";
  className?: string;
}

export function LoadFailure({ title, description, error, onRetry, retrying = null, heading, className }: LoadFailureProps) {
  const [tryingAgain, setTryingAgain] = useState(false);
  const tryAgain = async () => {
    setTryingAgain(true);
    try {
      await onRetry();
    } finally {
      setTryingAgain(false);
    }
  };
  const Title = heading ?? "p";
  const page = heading !== undefined;
  return (
    <div
      role="alert"
      data-testid="load-failure"
      className={cn(
        "grid justify-items-center gap-2 rounded-lg border border-dashed border-destructive/40 p-6 text-center text-sm",
        page && "mx-auto max-w-xl py-10",
        className,
      )}
    >
      <AlertCircle aria-hidden="true" className="size-5 text-destructive" />
      <Title className={cn("font-medium", page && "text-xl font-semibold")}>{title}</Title>
      <p className="text-muted-foreground">{description ?? failureDetail(error)}</p>
      {retrying !== null && (
        <p className="text-muted-foreground" data-testid="load-failure-retrying">
          {retryingLabel(retrying)}
        </p>
      )}
      <Button variant="outline" size="sm" className="mt-1" onClick={() => void tryAgain()} disabled={tryingAgain}>
        <RefreshCw aria-hidden="true" className={cn(tryingAgain && "animate-spin")} />
        Try again
      </Button>
    </div>
  );
}

/**
 * A settings page whose loader failed, inside the layout (header and settings menu stay): Try again
 * runs the loaders again. Anything else (a defect) is the application's error fallback.
 */
export function SettingsRouteLoadFailure(props: ErrorComponentProps) {
  const router = useRouter();
  const { error, reset } = props;
  if (!(error instanceof TRPCClientError)) return <ErrorFallback {...props} />;
  return (
    <LoadFailure
      // Under the settings layout, whose 'Account Settings' is the page's h1.
      heading="h2"
      title="This page could not be loaded"
      error={error}
      onRetry={async () => {
        await router.invalidate();
        reset();
      }}
    />
  );
}
