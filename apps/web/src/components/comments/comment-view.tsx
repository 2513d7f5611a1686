// One comment: who wrote it and when, the version it speaks of, "edited", its text, and the actions
// the server allows (Reply on a thread, Edit your own, Delete your own or, at team admin level, anyone's).
import { useState } from "react";
import type { RouterOutputs } from "@promptly/api";
import { COMMENT_MSG, initials, versionLabel } from "@promptly/shared";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useMe } from "@/hooks/use-me";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";
import { authorName } from "../prompts/author.ts";
import type { PromptDetail } from "../prompts/page/types.ts";
import { toastFailure } from "../prompts/page/use-refresh-prompt.ts";
import { CommentComposer } from "./comment-composer.tsx";
import { CommentMarkdown } from "./markdown.tsx";

export type CommentThread = RouterOutputs["comments"]["list"]["items"][number];
type Comment = CommentThread["replies"][number];

/** The element id of a comment, for links (`?comment=<id>`). */
export const commentElementId = (id: string) => `comment-${id}`;

interface Props {
  comment: Comment;
  prompt: PromptDetail;
  highlighted: boolean;
  onReply?(): void;
  onChanged(message: string): Promise<void>;
}

export function CommentView({ comment, prompt, highlighted, onReply, onChanged }: Props) {
  const [editing, setEditing] = useState(false);
  const update = trpc.comments.update.useMutation();
  const name = comment.deleted ? COMMENT_MSG.deletedStub : authorName(comment.author);

  return (
    <article
      id={commentElementId(comment.id)}
      tabIndex={-1}
      aria-label={comment.deleted ? COMMENT_MSG.deletedStub : `Comment by ${name}`}
      data-testid="comment"
      data-highlighted={highlighted || undefined}
      className={cn(
        "grid min-w-0 gap-1.5 rounded-md p-2 outline-none focus-visible:ring-2 focus-visible:ring-ring",
        highlighted && "bg-accent/60 ring-2 ring-primary/60",
      )}
    >
      {comment.deleted ? (
        <p className="text-sm text-muted-foreground italic">{COMMENT_MSG.deletedStub}</p>
      ) : (
        <>
          <header className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <Avatar className="size-6">
              {comment.author?.avatarUrl && <AvatarImage src={comment.author.avatarUrl} alt="" />}
              <AvatarFallback className="text-[10px]">{initials(comment.author?.fullName, null).slice(0, 2)}</AvatarFallback>
            </Avatar>
            <span className="min-w-0 truncate font-medium">{name}</span>
            <time dateTime={comment.createdAt.toISOString()} className="text-xs text-muted-foreground">
              {formatDateTime(comment.createdAt)}
            </time>
            {comment.version !== null && <Badge variant="outline">on {versionLabel(comment.version)}</Badge>}
            {comment.editedAt && (
              <span className="text-xs text-muted-foreground" title={`Edited ${formatDateTime(comment.editedAt)}`}>
                (edited)
              </span>
            )}
          </header>
          {editing ? (
            <CommentComposer
              promptId={prompt.id}
              label="Edit comment"
              initialBody={comment.body}
              submitLabel="Save"
              pendingLabel="Saving..."
              autoFocus
              onSubmit={async (body) => {
                await update.mutateAsync({ id: comment.id, body });
                setEditing(false);
                await onChanged(COMMENT_MSG.saved);
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <CommentMarkdown body={comment.body} mentions={comment.mentions} />
          )}
        </>
      )}
      {!editing && (comment.can.reply || comment.can.edit || comment.can.delete) && (
        <div className="flex flex-wrap gap-1">
          {comment.can.reply && onReply && (
            <Button variant="ghost" size="sm" onClick={onReply}>
              Reply
            </Button>
          )}
          {comment.can.edit && (
            <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          {comment.can.delete && <DeleteCommentDialog comment={comment} authorLabel={name} onDeleted={onChanged} />}
        </div>
      )}
    </article>
  );
}

function DeleteCommentDialog({ comment, authorLabel, onDeleted }: { comment: Comment; authorLabel: string; onDeleted(message: string): Promise<void> }) {
  const [open, setOpen] = useState(false);
  const { data: me } = useMe();
  const own = !!me && comment.author?.id === me.user.id;
  const remove = trpc.comments.delete.useMutation({
    async onSuccess() {
      setOpen(false);
      await onDeleted(COMMENT_MSG.deleted);
    },
    onError: toastFailure("Comment not deleted"),
  });
  const busy = remove.isPending;
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-destructive">
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{own ? "Delete your comment?" : `Delete ${authorLabel}'s comment?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {comment.parentId === null
              ? "The comment is deleted for good. If it has replies, they stay under a 'Comment deleted' note."
              : "The reply is deleted for good."}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={busy} onClick={() => remove.mutate({ id: comment.id })}>
            {busy ? "Deleting..." : "Delete comment"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
