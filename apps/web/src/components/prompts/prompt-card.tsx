// A prompt card: title, description, tags, bookmark toggle, author with avatar or
// initials, rating, comment count and version; the title opens the prompt.
import { Link } from "@tanstack/react-router";
import { Archive, MessageSquare, Star } from "lucide-react";
import type { RouterOutputs } from "@promptly/api";
import { PROMPT_VISIBILITY_LABELS, initials, versionLabel } from "@promptly/shared";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
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
            <CardTitle className="text-base">
              <Link to="/prompts/$promptId" params={{ promptId: prompt.id }} className="hover:underline focus-visible:underline">
                {prompt.title}
              </Link>
            </CardTitle>
            <p className="truncate font-mono text-xs text-muted-foreground" title={prompt.name}>
              {prompt.teamName} · {prompt.name}
            </p>
          </div>
          <BookmarkButton promptId={prompt.id} bookmarked={prompt.bookmarked} className="-mt-2 -mr-2 shrink-0" />
        </div>
        {prompt.description && <CardDescription className="line-clamp-3">{prompt.description}</CardDescription>}
      </CardHeader>
      <CardContent className="flex-1">
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
