// A prompt card: title, the full name (wrapped, never cut), description, labels with their versions,
// tags, bookmark toggle, author with avatar or initials, rating, comment count and version; the title
// opens the prompt. The same prompts as a compact table: name, labels, tags, updated, author.
import { Link } from "@tanstack/react-router";
import { Archive, MessageSquare, Star } from "lucide-react";
import type { RouterOutputs } from "@promptly/api";
import { PROMPT_VISIBILITY_LABELS, initials, versionLabel } from "@promptly/shared";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDate } from "@/lib/dates";
import { authorName } from "./author.ts";
import { BookmarkButton } from "./bookmark-button.tsx";

export type PromptCardData = RouterOutputs["prompts"]["list"]["items"][number];

/** Where cards can be chosen for bulk work: whether one is, and how to change it. */
export interface CardSelection {
  isSelected(id: string): boolean;
  toggle(prompt: PromptCardData): void;
}

function PromptCard({ prompt, selection }: { prompt: PromptCardData; selection?: CardSelection }) {
  const selected = selection?.isSelected(prompt.id) ?? false;
  return (
    <Card data-testid="prompt-card" className={selected ? "h-full ring-2 ring-primary" : "h-full"}>
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          {selection && (
            <input
              type="checkbox"
              className="mt-1 size-4 shrink-0 accent-primary"
              aria-label={`Select ${prompt.title}`}
              checked={selected}
              onChange={() => selection.toggle(prompt)}
            />
          )}
          <div className="min-w-0 flex-1">
            <CardTitle className="text-base wrap-anywhere">
              <Link to="/prompts/$promptId" params={{ promptId: prompt.id }} className="hover:underline focus-visible:underline">
                {prompt.title}
              </Link>
            </CardTitle>
            <p className="font-mono text-xs wrap-anywhere text-muted-foreground" data-testid="prompt-name">
              {prompt.teamName} · {prompt.name}
            </p>
          </div>
          <BookmarkButton promptId={prompt.id} bookmarked={prompt.bookmarked} className="-mt-2 -mr-2 shrink-0" />
        </div>
        {prompt.description && <CardDescription className="line-clamp-3">{prompt.description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-2">
        <PromptLabels labels={prompt.labels} />
        <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
          {prompt.archivedAt && (
            <li>
              <Badge variant="outline">
                <Archive aria-hidden="true" /> Archived
              </Badge>
            </li>
          )}
          <li>
            <Badge variant="outline">{PROMPT_VISIBILITY_LABELS[prompt.visibility]}</Badge>
          </li>
          {prompt.tags.map((tag) => (
            <li key={tag}>
              <Badge variant="secondary">{tag}</Badge>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter className="flex-wrap justify-between gap-2 text-sm text-muted-foreground">
        <div className="flex min-w-0 items-center gap-2">
          <Avatar className="size-6">
            {prompt.author?.avatarUrl && <AvatarImage src={prompt.author.avatarUrl} alt="" />}
            <AvatarFallback className="text-[10px]">{initials(prompt.author?.fullName, null)}</AvatarFallback>
          </Avatar>
          <span className="truncate text-foreground">{authorName(prompt.author)}</span>
        </div>
        <div className="flex items-center gap-3">
          <span className="flex items-center gap-1" data-testid="prompt-rating">
            <Star className="size-4 fill-yellow-400 text-yellow-400" aria-hidden="true" />
            <span className="sr-only">Rating </span>
            {prompt.ratingCount ? prompt.ratingAverage.toFixed(1) : "–"}
            <span className="sr-only">{` from ${prompt.ratingCount} ${prompt.ratingCount === 1 ? "rating" : "ratings"}`}</span>
          </span>
          <span className="flex items-center gap-1">
            <MessageSquare className="size-4" aria-hidden="true" />
            {prompt.commentCount}
            <span className="sr-only"> comments</span>
          </span>
          <Badge variant="outline">{versionLabel(prompt.latestVersion)}</Badge>
        </div>
      </CardFooter>
    </Card>
  );
}

/** The labels pointing at versions, e.g. `production v3`, `staging v4`. */
function PromptLabels({ labels }: { labels: PromptCardData["labels"] }) {
  if (!labels.length) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Labels">
      {labels.map((label) => (
        <li key={label.name}>
          <Badge variant="outline" className="font-mono" data-testid="prompt-label">
            {label.name} {versionLabel(label.version)}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/** A grid of cards. */
export function PromptGrid({ prompts, selection }: { prompts: PromptCardData[]; selection?: CardSelection }) {
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      {prompts.map((prompt) => (
        <PromptCard key={prompt.id} prompt={prompt} selection={selection} />
      ))}
    </div>
  );
}

/** The compact view: one row per prompt with its name, labels, tags, last update and author. */
export function PromptTable({ prompts, selection }: { prompts: PromptCardData[]; selection?: CardSelection }) {
  return (
    <Table aria-label="Prompts">
      <TableHeader>
        <TableRow>
          {selection && (
            <TableHead className="relative w-8">
              <span className="sr-only">Selected</span>
            </TableHead>
          )}
          <TableHead>Name</TableHead>
          <TableHead>Labels</TableHead>
          <TableHead>Tags</TableHead>
          <TableHead>Updated</TableHead>
          <TableHead>Author</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {prompts.map((prompt) => (
          <TableRow key={prompt.id} data-testid="prompt-row" data-state={selection?.isSelected(prompt.id) ? "selected" : undefined}>
            {selection && (
              <TableCell>
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  aria-label={`Select ${prompt.title}`}
                  checked={selection.isSelected(prompt.id)}
                  onChange={() => selection.toggle(prompt)}
                />
              </TableCell>
            )}
            <TableCell className="min-w-48 whitespace-normal">
              <Link to="/prompts/$promptId" params={{ promptId: prompt.id }} className="font-medium wrap-anywhere hover:underline focus-visible:underline">
                {prompt.title}
              </Link>
              <p className="font-mono text-xs wrap-anywhere text-muted-foreground">
                {prompt.teamName} · {prompt.name}
              </p>
            </TableCell>
            <TableCell className="whitespace-normal">
              <PromptLabels labels={prompt.labels} />
            </TableCell>
            <TableCell className="whitespace-normal">
              {prompt.tags.length > 0 && (
                <ul className="flex flex-wrap gap-1" aria-label="Tags">
                  {prompt.tags.map((tag) => (
                    <li key={tag}>
                      <Badge variant="secondary">{tag}</Badge>
                    </li>
                  ))}
                </ul>
              )}
            </TableCell>
            <TableCell>
              <time dateTime={prompt.updatedAt.toISOString()}>{formatDate(prompt.updatedAt)}</time>
            </TableCell>
            <TableCell>{authorName(prompt.author)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
