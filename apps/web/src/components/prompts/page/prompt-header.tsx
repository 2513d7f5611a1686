// The prompt's header: archived banner, title, copyable name, team, visibility, labels, tags, author,
// the bookmark toggle and the stars.
import { Archive, Users } from "lucide-react";
import { PROMPT_MSG, PROMPT_VISIBILITY_LABELS, versionLabel } from "@promptly/shared";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/lib/dates";
import { BookmarkButton } from "../bookmark-button.tsx";
import { CopyButton } from "./copy-button.tsx";
import { PromptRating } from "./prompt-rating.tsx";
import { splitText } from "./split-labels.tsx";
import type { PromptDetail } from "./types.ts";
import { authorName } from "../author.ts";

export function PromptHeader({ prompt }: { prompt: PromptDetail }) {
  return (
    <header className="grid min-w-0 grid-cols-1 gap-4">
      {prompt.archivedAt && (
        <Alert role="status" data-testid="archived-banner">
          <Archive aria-hidden="true" />
          <AlertTitle className="line-clamp-none">{PROMPT_MSG.archived}</AlertTitle>
        </Alert>
      )}
      <div className="flex min-w-0 items-start gap-2">
        <div className="grid min-w-0 flex-1 gap-2">
          <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{prompt.title}</h1>
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <code data-testid="prompt-name" className="min-w-0 rounded bg-muted px-1.5 py-0.5 font-mono text-sm break-all">
              {prompt.name}
            </code>
            <CopyButton text={prompt.name} label="Copy name" />
          </div>
        </div>
        <BookmarkButton promptId={prompt.id} bookmarked={prompt.bookmarked} />
      </div>
      {prompt.description && <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{prompt.description}</p>}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="flex min-w-0 items-center gap-1.5" data-testid="prompt-team">
          <Users className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="sr-only">Team: </span>
          <span className="truncate">{prompt.teamName}</span>
        </span>
        <Badge variant="outline" data-testid="prompt-visibility">
          <span className="sr-only">Visibility: </span>
          {PROMPT_VISIBILITY_LABELS[prompt.visibility]}
        </Badge>
        <span className="text-muted-foreground">
          By {authorName(prompt.author)} · Updated <time dateTime={prompt.updatedAt.toISOString()}>{formatDateTime(prompt.updatedAt)}</time>
        </span>
      </div>
      {prompt.labels.length > 0 && (
        <ul aria-label="Labels" className="flex flex-wrap gap-1.5">
          {prompt.labels.map((label) => (
            <li key={label.name}>
              <Badge>{label.split ? splitText({ ...label, split: label.split }) : `${label.name} → ${versionLabel(label.version)}`}</Badge>
            </li>
          ))}
        </ul>
      )}
      {prompt.tags.length > 0 && (
        <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
          {prompt.tags.map((tag) => (
            <li key={tag}>
              <Badge variant="secondary">{tag}</Badge>
            </li>
          ))}
        </ul>
      )}
      <PromptRating prompt={prompt} />
    </header>
  );
}
