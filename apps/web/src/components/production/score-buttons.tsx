// A person's own score of a generation: thumbs up or down, with an optional comment (scores.create).
// The buttons show the person's thumbs (pressed): the other one changes it, the pressed one removes it
// (scores.remove); the comment is saved with the thumbs. On an archived prompt they are disabled.
// The figures, the list and the generation are read again once it is saved.
import { useState } from "react";
import { ThumbsDown, ThumbsUp } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { trpc } from "@/lib/trpc";

interface OwnThumbs {
  up: boolean;
  comment: string | null;
}

export function ScoreButtons({ promptId, generationId, own, archived }: { promptId: string; generationId: string; own: OwnThumbs | null; archived: boolean }) {
  const [comment, setComment] = useState(own?.comment ?? "");
  const utils = trpc.useUtils();
  const create = trpc.scores.create.useMutation({
    onSuccess: async () => {
      toast.success("Score saved");
      await utils.production.invalidate();
    },
    onError: (error) => toast.error("The score could not be saved", { description: error.message }),
  });
  const remove = trpc.scores.remove.useMutation({
    onSuccess: async () => {
      toast.success("Score removed");
      setComment("");
      await utils.production.invalidate();
    },
    onError: (error) => toast.error("The score could not be removed", { description: error.message }),
  });
  const busy = create.isPending || remove.isPending;
  const commentId = `score-comment-${generationId}`;
  const give = (up: boolean) => create.mutate({ promptId, generationId, up, comment: comment.trim() || undefined });
  const press = (up: boolean) => (own?.up === up ? remove.mutate({ promptId, generationId }) : give(up));
  return (
    <form
      className="grid gap-2"
      aria-label="Score this generation"
      onSubmit={(event) => {
        event.preventDefault();
        if (own) give(own.up);
      }}
    >
      {archived && <p className="text-sm text-muted-foreground">{PROMPT_MSG.archived}</p>}
      <div className="flex flex-wrap gap-2" role="group" aria-label="Thumbs">
        {[true, false].map((up) => {
          const Icon = up ? ThumbsUp : ThumbsDown;
          const pressed = own?.up === up;
          return (
            <Button
              key={String(up)}
              type="button"
              variant={pressed ? "default" : "outline"}
              size="sm"
              aria-pressed={pressed}
              title={pressed ? "Remove your thumbs" : undefined}
              disabled={archived || busy}
              onClick={() => press(up)}
            >
              <Icon aria-hidden="true" />
              {up ? "Thumbs up" : "Thumbs down"}
            </Button>
          );
        })}
      </div>
      <Label htmlFor={commentId}>Comment (optional)</Label>
      <Textarea id={commentId} value={comment} maxLength={2000} rows={2} disabled={archived} onChange={(event) => setComment(event.target.value)} />
      <div>
        <Button type="submit" size="sm" disabled={archived || !own || busy}>
          {create.isPending ? "Saving…" : "Save score"}
        </Button>
      </div>
    </form>
  );
}
