// When the prompt cannot be shown: not found (or not readable, which the server words the same), a
// version that does not exist, or a failed request that may be retried. Never a blank page.
import { Link } from "@tanstack/react-router";
import { PROMPT_MSG } from "@promptly/shared";
import { Button } from "@/components/ui/button";

interface LoadError {
  message: string;
  data?: { code?: string } | null;
}

const MISSING = new Set(["NOT_FOUND", "BAD_REQUEST", "FORBIDDEN"]);

export function PromptUnavailable({ promptId, error, versionAsked, onRetry }: { promptId: string; error: LoadError | null; versionAsked: boolean; onRetry(): void }) {
  const code = error?.data?.code;
  const versionMissing = versionAsked && code === "NOT_FOUND" && error?.message === PROMPT_MSG.versionNotFound;
  const missing = !code || MISSING.has(code);
  return (
    <div role="alert" className="mx-auto flex min-h-[50svh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">{versionMissing ? "Version not found" : missing ? "Prompt not found" : "The prompt could not be loaded"}</h1>
      <p className="text-sm text-muted-foreground">
        {versionMissing
          ? "This prompt has no such version."
          : missing
            ? "It does not exist, or you do not have access to it."
            : (error?.message ?? "Something went wrong.")}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        {versionMissing && (
          <Button asChild variant="outline">
            <Link to="/prompts/$promptId" params={{ promptId }}>
              Show the current version
            </Link>
          </Button>
        )}
        {!missing && !versionMissing && (
          <Button variant="outline" onClick={onRetry}>
            Try again
          </Button>
        )}
        <Button asChild>
          <Link to="/">Return to Home</Link>
        </Button>
      </div>
    </div>
  );
}
