// When the prompt cannot be shown: not found (or not readable, which the server words the same), a
// version that does not exist, or a failed request (the server's or the network's) that may be retried.
import { Link } from "@tanstack/react-router";
import { PROMPT_MSG } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";

interface LoadError {
  message: string;
  data?: { code?: string } | null;
}

const MISSING = new Set(["NOT_FOUND", "BAD_REQUEST", "FORBIDDEN"]);

export function PromptUnavailable({ promptId, error, versionAsked, onRetry }: { promptId: string; error: LoadError | null; versionAsked: boolean; onRetry(): unknown }) {
  const code = error?.data?.code;
  const versionMissing = versionAsked && code === "NOT_FOUND" && error?.message === PROMPT_MSG.versionNotFound;
  const missing = code !== undefined && MISSING.has(code);
  if (!missing && !versionMissing) return <LoadFailure heading="h1" title="The prompt could not be loaded" error={error} onRetry={onRetry} />;
  return (
    <div role="alert" className="mx-auto flex min-h-[50svh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">{versionMissing ? "Version not found" : "Prompt not found"}</h1>
      <p className="text-sm text-muted-foreground">{versionMissing ? "This prompt has no such version." : "It does not exist, or you do not have access to it."}</p>
      <div className="flex flex-wrap justify-center gap-2">
        {versionMissing && (
          <Button asChild variant="outline">
            <Link to="/prompts/$promptId" params={{ promptId }}>
              Show the current version
            </Link>
          </Button>
        )}
        <Button asChild>
          <Link to="/">Return to Home</Link>
        </Button>
      </div>
    </div>
  );
}
