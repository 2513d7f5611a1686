// The Template tab's "Includes" (the prompts this version includes with @@@langfusePrompt:...@@@ tags)
// and "Used by" (other prompts whose versions include this one), each linked where the reader may open it.
import { Link } from "@tanstack/react-router";
import { Alert, AlertDescription } from "@/components/ui/alert";
import type { PromptDetail } from "./types.ts";

const selectorText = (item: { label: string | null; version: number | null }) => (item.version !== null ? `version ${item.version}` : `label ${item.label}`);
const linkClass = "font-mono text-primary underline-offset-4 hover:underline break-all";

export function PromptIncludes({ prompt }: { prompt: PromptDetail }) {
  // The version each include resolved to for this reader (the graph's first level), to open it at that version.
  const graph = prompt.resolved?.ok ? prompt.resolved.graph : null;
  const resolvedTo = (name: string) => (graph ? graph.dependencies[graph.root.id]?.find((node) => node.name === name)?.version : undefined);
  return (
    <div className="grid min-w-0 gap-4 sm:grid-cols-2">
      <section className="grid min-w-0 content-start gap-2" aria-labelledby="includes-title">
        <h2 id="includes-title" className="text-base font-semibold">
          Includes
        </h2>
        {prompt.resolved?.ok === false && (
          <Alert variant="destructive">
            <AlertDescription>{prompt.resolved.message}</AlertDescription>
          </Alert>
        )}
        {prompt.includes.length === 0 ? (
          <p className="text-sm text-muted-foreground">This version includes no other prompt.</p>
        ) : (
          <ul className="grid gap-1 text-sm" data-testid="includes-list">
            {prompt.includes.map((item) => (
              <li key={`${item.name} ${selectorText(item)}`} className="min-w-0">
                {item.promptId ? (
                  <Link
                    to="/prompts/$promptId"
                    params={{ promptId: item.promptId }}
                    search={{ version: item.version ?? resolvedTo(item.name) }}
                    className={linkClass}
                  >
                    {item.name}
                  </Link>
                ) : (
                  <span className="font-mono break-all">{item.name}</span>
                )}{" "}
                <span className="text-muted-foreground">({selectorText(item)})</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="grid min-w-0 content-start gap-2" aria-labelledby="used-by-title">
        <h2 id="used-by-title" className="text-base font-semibold">
          Used by
        </h2>
        {prompt.usedBy.length === 0 ? (
          <p className="text-sm text-muted-foreground">No other prompt includes this one.</p>
        ) : (
          <ul className="grid gap-1 text-sm" data-testid="used-by-list">
            {prompt.usedBy.map((item) => (
              <li key={item.promptId} className="min-w-0">
                <Link to="/prompts/$promptId" params={{ promptId: item.promptId }} search={{ version: item.version }} className={linkClass}>
                  {item.name}
                </Link>{" "}
                <span className="text-muted-foreground">
                  v{item.version}, by {selectorText({ label: item.label, version: item.includedVersion })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
