// A prompt card (spec 2 dashboard): title, description, tags, bookmark toggle, author, rating,
// comment count and version.
import { useState } from "react";
import { Bookmark, BookmarkCheck, MessageSquare, Star } from "lucide-react";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { PromptCardData } from "./sample-data.ts";

export function PromptCard({ prompt }: { prompt: PromptCardData }) {
  const [bookmarked, setBookmarked] = useState(prompt.bookmarked);
  const bookmarkLabel = bookmarked ? "Remove from bookmarks" : "Add to bookmarks";

  return (
    <Card data-testid="prompt-card" className="h-full">
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <CardTitle className="text-base">{prompt.title}</CardTitle>
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                className="-mt-2 -mr-2"
                aria-label={bookmarkLabel}
                aria-pressed={bookmarked}
                onClick={() => setBookmarked((current) => !current)}
              >
                {bookmarked ? <BookmarkCheck className="fill-current" aria-hidden="true" /> : <Bookmark aria-hidden="true" />}
              </Button>
            </TooltipTrigger>
            <TooltipContent>{bookmarkLabel}</TooltipContent>
          </Tooltip>
        </div>
        <CardDescription>{prompt.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
          {prompt.tags.map((tag) => (
            <li key={tag}>
              <Badge variant="secondary">{tag}</Badge>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter className="flex-wrap justify-between gap-2 text-sm text-muted-foreground">
        <div className="flex items-center gap-2">
          <Avatar className="size-6">
            {prompt.author.avatar && <AvatarImage src={prompt.author.avatar} alt="" />}
            <AvatarFallback className="text-[10px]">{prompt.author.initials}</AvatarFallback>
          </Avatar>
          <span className="text-foreground">{prompt.author.name}</span>
        </div>
        <div className="flex items-center gap-3">
          <span className="flex items-center gap-1" title="Rating">
            <Star className="size-4 fill-yellow-400 text-yellow-400" aria-hidden="true" />
            <span className="sr-only">Rating </span>
            {prompt.rating.toFixed(1)}
          </span>
          <span className="flex items-center gap-1" title="Comments">
            <MessageSquare className="size-4" aria-hidden="true" />
            {prompt.commentsCount}
            <span className="sr-only"> comments</span>
          </span>
          <Badge variant="outline">{prompt.version}</Badge>
        </div>
      </CardFooter>
    </Card>
  );
}
