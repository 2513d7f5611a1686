// The shared lint's verdict on the draft, live: errors block the save, warnings do not.
import { AlertCircle, AlertTriangle, CheckCircle2 } from "lucide-react";
import type { LintResult } from "@promptly/shared";

export function LintResults({ result }: { result: LintResult }) {
  const clean = !result.errors.length && !result.warnings.length;
  return (
    <section aria-label="Lint results" aria-live="polite" className="grid gap-2 rounded-md border border-border p-3 text-sm">
      {clean ? (
        <p className="flex items-center gap-2 text-muted-foreground">
          <CheckCircle2 aria-hidden="true" className="size-4 text-emerald-600" />
          No problems found
        </p>
      ) : (
        <ul className="grid gap-1.5">
          {result.errors.map((error) => (
            <li key={`error-${error}`} className="flex gap-2 text-destructive">
              <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>
                <span className="sr-only">Error: </span>
                {error}
              </span>
            </li>
          ))}
          {result.warnings.map((warning) => (
            <li key={`warning-${warning}`} className="flex gap-2 text-amber-700">
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>
                <span className="sr-only">Warning: </span>
                {warning}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
