// The prompt page's Comments tab: a composer for a new thread, the threads newest first
// with their first replies ('Show more replies' for the rest), Reply / Edit / Delete where the server
// allows, 'Load more' for older threads.
// `?comment=<id>` (links from notifications) opens the page of that comment, scrolls to it and
// focuses it.
import { useEffect, useState } from "react";
import { COMMENT_MSG } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import { usePromptSearch } from "../prompts/page/route-api.ts";
import type { PromptDetail } from "../prompts/page/types.ts";
import { CommentComposer } from "./comment-composer.tsx";
import { CommentView, commentElementId, type CommentThread } from "./comment-view.tsx";

/** How many pages a link to an old comment may load to find it. */
const MAX_PAGES_TO_FIND = 25;

export function CommentsTab({ prompt }: { prompt: PromptDetail }) {
  const [search] = usePromptSearch();
  const [announcement, setAnnouncement] = useState("");
  const [replyingTo, setReplyingTo] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const comments = trpc.comments.list.useInfiniteQuery({ promptId: prompt.id }, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  const create = trpc.comments.create.useMutation();
  const refresh = () =>
    Promise.all([utils.comments.list.invalidate({ promptId: prompt.id }), utils.comments.replies.invalidate(), utils.prompts.invalidate()]);
  const target = useLinkedComment(comments, search.comment);

  if (comments.isPending) {
    return (
      <div className="grid gap-3" role="status" aria-label="Loading comments">
        <Skeleton className="h-24" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  if (comments.isError) {
    return <LoadFailure title="The comments could not be loaded" error={comments.error} onRetry={() => comments.refetch()} />;
  }

  const threads = comments.data.pages.flatMap((page) => page.items);
  const post = async (body: string, version: number | undefined, parentId?: string) => {
    await create.mutateAsync({ promptId: prompt.id, body, version, parentId });
    setAnnouncement(parentId ? COMMENT_MSG.replied : COMMENT_MSG.posted);
    await refresh();
  };
  const viewedVersion = search.version !== undefined;

  return (
    <section className="grid min-w-0 gap-4" aria-labelledby="comments-heading">
      <h2 id="comments-heading" className="text-base font-semibold">
        Comments <span className="font-normal text-muted-foreground">({prompt.commentCount})</span>
      </h2>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {prompt.archivedAt ? (
        <p className="rounded-md border border-dashed border-border p-3 text-sm text-muted-foreground">{COMMENT_MSG.archived}</p>
      ) : (
        <CommentComposer
          promptId={prompt.id}
          label="New comment"
          submitLabel="Post comment"
          pendingLabel="Posting..."
          version={{ number: prompt.version.version, tiedByDefault: viewedVersion }}
          onSubmit={(body, version) => post(body, version)}
        />
      )}
      {target.missing && (
        <p role="alert" className="rounded-md border border-border bg-muted p-3 text-sm">
          The comment you were sent to is no longer here: it was deleted.
        </p>
      )}
      {threads.length === 0 ? (
        <p className="text-sm text-muted-foreground">No comments yet.</p>
      ) : (
        <ol aria-label="Comment threads" className="grid min-w-0 gap-3">
          {threads.map((thread) => (
            <li key={thread.id} className="min-w-0 rounded-md border border-border">
              <ThreadView
                thread={thread}
                prompt={prompt}
                highlighted={target.id}
                replying={replyingTo === thread.id}
                onReply={() => setReplyingTo(thread.id)}
                onCancelReply={() => setReplyingTo(null)}
                onPostReply={async (body) => {
                  await post(body, undefined, thread.id);
                  setReplyingTo(null);
                }}
                onChanged={async (message) => {
                  setAnnouncement(message);
                  await refresh();
                }}
              />
            </li>
          ))}
        </ol>
      )}
      {comments.hasNextPage && (
        <div>
          <Button variant="outline" disabled={comments.isFetchingNextPage} onClick={() => void comments.fetchNextPage()}>
            {comments.isFetchingNextPage ? "Loading..." : "Load older comments"}
          </Button>
        </div>
      )}
    </section>
  );
}

interface ThreadProps {
  thread: CommentThread;
  prompt: PromptDetail;
  highlighted: string | undefined;
  replying: boolean;
  onReply(): void;
  onCancelReply(): void;
  onPostReply(body: string): Promise<void>;
  onChanged(message: string): Promise<void>;
}

function ThreadView({ thread, prompt, highlighted, replying, onReply, onCancelReply, onPostReply, onChanged }: ThreadProps) {
  const more = useMoreReplies(thread);
  const replies = [...thread.replies, ...more.replies];
  const hidden = thread.replyCount - replies.length;
  return (
    <div className="grid min-w-0 gap-2 p-3">
      <CommentView comment={thread} prompt={prompt} highlighted={highlighted === thread.id} onReply={onReply} onChanged={onChanged} />
      {(replies.length > 0 || replying) && (
        <div className="ml-3 grid min-w-0 gap-2 border-l-2 border-border pl-3 sm:ml-6">
          {replies.length > 0 && (
            <ol aria-label="Replies" className="grid min-w-0 gap-2">
              {replies.map((reply) => (
                <li key={reply.id} className="min-w-0">
                  <CommentView comment={reply} prompt={prompt} highlighted={highlighted === reply.id} onChanged={onChanged} />
                </li>
              ))}
            </ol>
          )}
          {more.available && (
            <div className="grid justify-items-start gap-1">
              <Button variant="outline" size="sm" disabled={more.loading} onClick={more.load}>
                {more.loading ? "Loading..." : hidden > 0 ? `Show more replies (${hidden})` : "Show more replies"}
              </Button>
              {more.error && (
                <p role="alert" className="text-sm text-destructive">
                  The replies could not be loaded: {more.error.message}
                </p>
              )}
            </div>
          )}
          {replying && (
            <CommentComposer
              promptId={prompt.id}
              label="Reply"
              submitLabel="Post reply"
              pendingLabel="Posting..."
              autoFocus
              onSubmit={onPostReply}
              onCancel={onCancelReply}
            />
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The replies of a thread past those its page of threads carries, read a page at a time once asked
 * for. Those already shown are left out: a delete above them moves the list's own replies on.
 */
function useMoreReplies(thread: CommentThread) {
  const [asked, setAsked] = useState(false);
  const cursor = thread.repliesCursor;
  const pages = trpc.comments.replies.useInfiniteQuery(
    { id: thread.id },
    { enabled: asked && cursor !== null, initialCursor: cursor ?? undefined, getNextPageParam: (page) => page.nextCursor ?? undefined },
  );
  // With no cursor the list holds every reply; a page read before is out of date.
  const shown = new Set(thread.replies.map((reply) => reply.id));
  const replies = asked && cursor !== null ? (pages.data?.pages ?? []).flatMap((page) => page.items).filter((reply) => !shown.has(reply.id)) : [];
  const available = cursor !== null && (!asked || pages.isPending || pages.isError || pages.hasNextPage);
  const loading = asked && pages.isFetching;
  const load = () => {
    if (!asked) setAsked(true);
    else if (!pages.data) void pages.refetch();
    else void pages.fetchNextPage();
  };
  return { replies, available, loading, load, error: asked ? pages.error : null };
}

/**
 * The comment a link names: loads older pages until it is there (or there are none), then scrolls
 * to it and focuses it once. `missing` when it is not found (deleted since the link was made).
 */
function useLinkedComment(
  comments: { data?: { pages: { items: CommentThread[] }[] }; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): Promise<unknown> },
  id: string | undefined,
) {
  const [shown, setShown] = useState<string | null>(null);
  const pages = comments.data?.pages;
  const found = !!id && !!pages?.some((page) => page.items.some((thread) => thread.id === id || thread.replies.some((reply) => reply.id === id)));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = comments;

  useEffect(() => {
    if (!id || !pages || shown === id) return;
    if (found) {
      const element = document.getElementById(commentElementId(id));
      element?.scrollIntoView({ block: "center" });
      element?.focus({ preventScroll: true });
      setShown(id);
    } else if (hasNextPage && !isFetchingNextPage && pages.length < MAX_PAGES_TO_FIND) {
      void fetchNextPage();
    }
  }, [id, pages, found, shown, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // A reply past a thread's first ones is not loaded yet, so it is not said to be deleted.
  const repliesHidden = !!pages?.some((page) => page.items.some((thread) => thread.repliesCursor !== null));
  return { id, missing: !!id && !!pages && !found && !hasNextPage && !repliesHidden };
}
