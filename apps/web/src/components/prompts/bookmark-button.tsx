// The bookmark toggle of a prompt card and page ('Add to bookmarks' / 'Remove from bookmarks').
// The toggle shows the new state at once and settles on the server's answer.
import { useState } from "react";
import { Bookmark, BookmarkCheck } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";

export function BookmarkButton({ promptId, bookmarked, className }: { promptId: string; bookmarked: boolean; className?: string }) {
  const utils = trpc.useUtils();
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  const shown = optimistic ?? bookmarked;
  const settle = {
    onError: (error: { message: string }) => toast.error("Bookmark not saved", { description: error.message }),
    onSettled: async () => {
      await Promise.all([utils.prompts.invalidate(), utils.dashboard.invalidate()]);
      setOptimistic(null);
    },
  };
  const add = trpc.bookmarks.add.useMutation(settle);
  const remove = trpc.bookmarks.remove.useMutation(settle);
  const label = shown ? "Remove from bookmarks" : "Add to bookmarks";

  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={cn(className)}
          aria-label={label}
          aria-pressed={shown}
          disabled={add.isPending || remove.isPending}
          onClick={() => {
            setOptimistic(!shown);
            (shown ? remove : add).mutate({ promptId });
          }}
        >
          {shown ? <BookmarkCheck className="fill-current" aria-hidden="true" /> : <Bookmark aria-hidden="true" />}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
