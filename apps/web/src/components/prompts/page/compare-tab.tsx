// The Compare tab: 'From' and 'To' versions (default: the latest version, from production's when they
// differ, else from the one before it), each fetched with prompts.get, line diffs of the template or
// messages (the changed words marked inside changed lines), model, config, tools and response format,
// unified or side by side, and the variables as a table.
import { useState } from "react";
import { Columns2 } from "lucide-react";
import { PROTECTED_LABEL } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import { LineDiff } from "./line-diff.tsx";
import { usePromptSearch } from "./route-api.ts";
import type { PromptDetail, PromptVersion } from "./types.ts";
import { VariablesDiff } from "./variables-diff.tsx";
import { prettyJson } from "./version-body.ts";
import { VersionSelect } from "./version-select.tsx";

export function CompareTab({ prompt }: { prompt: PromptDetail }) {
  const [search, setSearch] = usePromptSearch();
  // What changed last, and whether it is live yet: the latest version against production when it is not production, else against the one before.
  const production = prompt.labels.find((label) => label.name === PROTECTED_LABEL)?.version;
  const to = search.to ?? prompt.latestVersion;
  const from = search.from ?? (production !== undefined && production !== to ? production : Math.max(1, to - 1));
  const [sideBySide, setSideBySide] = useState(false);
  const before = trpc.prompts.get.useQuery({ id: prompt.id, version: from });
  const after = trpc.prompts.get.useQuery({ id: prompt.id, version: to });
  const failed = before.error ?? after.error;

  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <VersionSelect label="From" prompt={prompt} value={from} onValueChange={(version) => setSearch({ from: version }, { replace: true })} />
        <VersionSelect label="To" prompt={prompt} value={to} onValueChange={(version) => setSearch({ to: version }, { replace: true })} />
        <Button variant="outline" size="sm" className="mb-0.5" aria-pressed={sideBySide} onClick={() => setSideBySide((current) => !current)}>
          <Columns2 aria-hidden="true" />
          Side by side
        </Button>
      </div>
      {failed ? (
        <Alert variant="destructive">
          <AlertTitle>A version could not be loaded</AlertTitle>
          <AlertDescription>{failed.message}</AlertDescription>
        </Alert>
      ) : before.data && after.data ? (
        <VersionDiff before={before.data.version} after={after.data.version} sideBySide={sideBySide} />
      ) : (
        <div role="status" aria-label="Loading versions" className="grid gap-2">
          <Skeleton className="h-24" />
          <Skeleton className="h-12" />
        </div>
      )}
    </div>
  );
}

/** The prompt's text: the template, or the messages as '[role]' blocks. */
const promptText = (version: PromptVersion) =>
  version.type === "chat"
    ? (version.messages ?? []).map((message) => ("type" in message ? `[placeholder] ${message.name}` : `[${message.role}]\n${message.content}`)).join("\n\n")
    : (version.template ?? "");

export function VersionDiff({ before, after, sideBySide = false }: { before: PromptVersion; after: PromptVersion; sideBySide?: boolean }) {
  const textTitle = before.type !== after.type ? "Prompt" : after.type === "chat" ? "Messages" : "Template";
  const parts = [
    { title: textTitle, before: promptText(before), after: promptText(after) },
    { title: "Model", before: before.model, after: after.model },
    { title: "Config", before: prettyJson(before.config), after: prettyJson(after.config) },
    { title: "Tools", before: prettyJson(before.tools), after: prettyJson(after.tools) },
    { title: "Response format", before: prettyJson(before.responseFormat), after: prettyJson(after.responseFormat) },
    { title: "Variables", before: prettyJson(before.variables), after: prettyJson(after.variables), table: true },
  ];
  return (
    <div className="grid min-w-0 gap-5" data-testid="version-diff">
      {parts.map((part) => (
        <section key={part.title} className="grid min-w-0 gap-2">
          <h2 className="text-base font-semibold">{part.title}</h2>
          {part.before === part.after ? (
            <p className="text-sm text-muted-foreground">No changes</p>
          ) : part.table ? (
            <VariablesDiff before={before.variables} after={after.variables} />
          ) : (
            <LineDiff before={part.before} after={part.after} label={part.title} sideBySide={sideBySide} />
          )}
        </section>
      ))}
    </div>
  );
}
