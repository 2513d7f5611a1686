// The Template tab: the shown version's template (or messages by role), model, config and variable contract.
import { effectiveContract } from "@promptly/shared";
import { formatDateTime } from "@/lib/dates";
import { ChatMessages } from "./chat-messages.tsx";
import { HighlightedTemplate } from "./highlighted-template.tsx";
import { PromptIncludes } from "./prompt-includes.tsx";
import type { PromptDetail } from "./types.ts";
import { VariableTable } from "./variable-table.tsx";
import { authorName } from "../author.ts";
import { prettyJson, versionBody } from "./version-body.ts";

const sectionTitle = "text-base font-semibold";

export function TemplateTab({ prompt }: { prompt: PromptDetail }) {
  const { version } = prompt;
  const body = versionBody(version);
  return (
    <div className="grid min-w-0 gap-6">
      <p className="text-sm text-muted-foreground">
        {version.commitMessage || "No commit message"} · {authorName(version.author)} ·{" "}
        <time dateTime={version.createdAt.toISOString()}>{formatDateTime(version.createdAt)}</time>
      </p>
      <section className="grid min-w-0 gap-2">
        <h2 className={sectionTitle}>{body.type === "chat" ? "Messages" : "Template"}</h2>
        {body.type === "chat" ? (
          <ChatMessages messages={body.messages} label="Messages" render={(content) => <HighlightedTemplate text={content} />} />
        ) : (
          <div className="rounded-md border border-border p-3" data-testid="template-text">
            <HighlightedTemplate text={body.template} />
          </div>
        )}
      </section>
      <PromptIncludes prompt={prompt} />
      <section className="grid min-w-0 gap-2">
        <h2 className={sectionTitle}>Model</h2>
        <p className="text-sm break-words" data-testid="version-model">
          {version.model || "Not set"}
        </p>
        <h3 className="text-sm font-semibold">Config</h3>
        <pre tabIndex={0} aria-label="Config" className="max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs" data-testid="version-config">
          {prettyJson(version.config)}
        </pre>
      </section>
      <section className="grid min-w-0 gap-2">
        <h2 className={sectionTitle}>Variables</h2>
        <VariableTable contract={prompt.resolved?.ok ? prompt.resolved.variables : effectiveContract(body)} />
      </section>
      {version.placeholders.length > 0 && (
        <section className="grid min-w-0 gap-2">
          <h2 className={sectionTitle}>Placeholders</h2>
          <p className="text-sm text-muted-foreground">Each takes a list of messages when the prompt is used, apart from the variables.</p>
          <ul aria-label="Placeholders" className="flex flex-wrap gap-2">
            {version.placeholders.map((name) => (
              <li key={name} className="rounded-md border border-dashed border-border px-2 py-1 font-mono text-sm">
                {name}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
