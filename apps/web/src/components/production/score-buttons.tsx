// A person's own score of a generation: thumbs up or down, with an optional comment (scores.create).
// The figures, the list and the generation are read again once it is saved.
import { useState } from "react";
import { ThumbsDown, ThumbsUp } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { trpc } from "@/lib/trpc";

export function ScoreButtons({ promptId, generationId }: { promptId: string; generationId: string }) {
  const [up, setUp] = useState<boolean | null>(null);
  const [comment, setComment] = useState("");
  const utils = trpc.useUtils();
  const create = trpc.scores.create.useMutation({
    onSuccess: async () => {
      toast.success("Score saved");
      setUp(null);
      setComment("");
      await utils.production.invalidate();
    },
    onError: (error) => toast.error("The score could not be saved", { description: error.message }),
  });
  const commentId = `score-comment-${generationId}`;
  return (
    <form
      className="grid gap-2"
      aria-label="Score this generation"
      onSubmit={(event) => {
        event.preventDefault();
        if (up === null) return;
        create.mutate({ promptId, generationId, up, comment: comment.trim() || undefined });
      }}
    >
      <div className="flex flex-wrap gap-2" role="group" aria-label="Thumbs">
        <Button type="button" variant={up === true ? "default" : "outline"} size="sm" aria-pressed={up === true} onClick={() => setUp(true)}>
          <ThumbsUp aria-hidden="true" />
          Thumbs up
        </Button>
        <Button type="button" variant={up === false ? "default" : "outline"} size="sm" aria-pressed={up === false} onClick={() => setUp(false)}>
          <ThumbsDown aria-hidden="true" />
          Thumbs down
        </Button>
      </div>
      <Label htmlFor={commentId}>Comment (optional)</Label>
      <Textarea id={commentId} value={comment} maxLength={2000} rows={2} onChange={(event) => setComment(event.target.value)} />
      <div>
        <Button type="submit" size="sm" disabled={up === null || create.isPending}>
          {create.isPending ? "Saving…" : "Save score"}
        </Button>
      </div>
    </form>
  );
}
