// The prompt page's Comments tab: a composer for a new thread, the threads newest first
// with their newest replies ('Show earlier replies' above them for the rest), Reply / Edit / Delete where
// the server allows, 'Load more' for older threads.
// `?comment=<id>` (links from notifications) opens the page of that comment, or the earlier replies
// holding it, scrolls to it and focuses it.
import { useCallback, useEffect, useRef, useState } from "react";
import { COMMENT_MSG } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import { usePromptSearch } from "../prompts/page/route-api.ts";
import type { PromptDetail } from "../prompts/page/types.ts";
import { CommentComposer } from "./comment-composer.tsx";
import { CommentView, commentElementId, type CommentThread } from "./comment-view.tsx";

/** How many pages a link to an old comment may load to find it (of threads, then of earlier replies). */
const MAX_PAGES_TO_FIND = 25;

export function CommentsTab({ prompt }: { prompt: PromptDetail }) {
  const [search] = usePromptSearch();
  const [announcement, setAnnouncement] = useState("");
  const [replyingTo, setReplyingTo] = useState<string | null>(null);
  // Pages of earlier replies shown, by thread: asked for with the button or by a link to one of them.
  const [earlierPages, setEarlierPages] = useState<Record<string, number>>({});
  const showEarlier = useCallback(
    (threadId: string, pages: number) => setEarlierPages((shown) => ({ ...shown, [threadId]: Math.max(shown[threadId] ?? 0, pages) })),
    [],
  );
  const utils = trpc.useUtils();
  const comments = trpc.comments.list.useInfiniteQuery({ promptId: prompt.id }, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  const create = trpc.comments.create.useMutation();
  const refresh = () =>
    Promise.all([utils.comments.list.invalidate({ promptId: prompt.id }), utils.comments.replies.invalidate(), utils.prompts.invalidate()]);
  const target = useLinkedComment(comments, search.comment, showEarlier);

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
                earlierPages={earlierPages[thread.id] ?? 0}
                onShowEarlier={(pages) => showEarlier(thread.id, pages)}
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
  /** How many pages of replies before the thread's own newest ones to show. */
  earlierPages: number;
  onShowEarlier(pages: number): void;
  onReply(): void;
  onCancelReply(): void;
  onPostReply(body: string): Promise<void>;
  onChanged(message: string): Promise<void>;
}

function ThreadView({ thread, prompt, highlighted, replying, earlierPages, onShowEarlier, onReply, onCancelReply, onPostReply, onChanged }: ThreadProps) {
  const earlier = useEarlierReplies(thread, earlierPages);
  const replies = [...earlier.replies, ...thread.replies];
  const hidden = thread.replyCount - replies.length;
  return (
    <div className="grid min-w-0 gap-2 p-3">
      <CommentView comment={thread} prompt={prompt} highlighted={highlighted === thread.id} onReply={onReply} onChanged={onChanged} />
      {(replies.length > 0 || replying) && (
        <div className="ml-3 grid min-w-0 gap-2 border-l-2 border-border pl-3 sm:ml-6">
          {earlier.available && (
            <div className="grid justify-items-start gap-1">
              <Button variant="outline" size="sm" disabled={earlier.loading} onClick={() => (earlier.error ? earlier.retry() : onShowEarlier(earlier.pages + 1))}>
                {earlier.loading ? "Loading..." : hidden > 0 ? `Show earlier replies (${hidden})` : "Show earlier replies"}
              </Button>
              {earlier.error && (
                <p role="alert" className="text-sm text-destructive">
                  The replies could not be loaded: {earlier.error.message}
                </p>
              )}
            </div>
          )}
          {replies.length > 0 && (
            <ol aria-label="Replies" className="grid min-w-0 gap-2">
              {replies.map((reply) => (
                <li key={reply.id} className="min-w-0">
                  <CommentView comment={reply} prompt={prompt} highlighted={highlighted === reply.id} onChanged={onChanged} />
                </li>
              ))}
            </ol>
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
 * The replies of a thread before the newest ones its page of threads carries, `pages` pages of them,
 * oldest first. Each page is its own query keyed by its cursor and starts where the one after it ends,
 * so when a new reply moves the thread's cursor on, the pages follow it and none is left out.
 */
function useEarlierReplies(thread: CommentThread, pages: number) {
  const utils = trpc.useUtils();
  const cursors: string[] = [];
  // A page not read yet ends the chain until it is.
  for (let cursor = thread.repliesCursor; cursor && cursors.length < pages; ) {
    cursors.push(cursor);
    cursor = utils.comments.replies.getData({ id: thread.id, cursor })?.nextCursor ?? null;
  }
  const results = trpc.useQueries((t) => cursors.map((cursor) => t.comments.replies({ id: thread.id, cursor })));
  // A page read before a delete or a new reply may overlap the thread's own replies or another page.
  const seen = new Set(thread.replies.map((reply) => reply.id));
  const replies: CommentThread["replies"] = [];
  for (const result of [...results].reverse()) {
    for (const reply of result.data?.items ?? []) {
      if (seen.has(reply.id)) continue;
      seen.add(reply.id);
      replies.push(reply);
    }
  }
  const last = results.at(-1);
  const available = thread.repliesCursor !== null && (!last || !last.data || last.data.nextCursor !== null);
  return {
    replies,
    available,
    pages: cursors.length,
    loading: !!last?.isLoading,
    error: last && !last.data ? last.error : null,
    retry: () => void last?.refetch(),
  };
}

type LinkLookup = { outcome: "found"; threadId: string; pages: number } | { outcome: "absent" | "unknown" };

/**
 * Looks for a reply among the earlier replies of threads that have some not loaded, reading their
 * pages as the tab does (so the tab shows them from the cache), at most MAX_PAGES_TO_FIND pages in all.
 */
async function findEarlierReply(utils: ReturnType<typeof trpc.useUtils>, threads: CommentThread[], id: string): Promise<LinkLookup> {
  let budget = MAX_PAGES_TO_FIND;
  try {
    for (const thread of threads) {
      let pages = 0;
      for (let cursor = thread.repliesCursor; cursor; ) {
        if (budget-- === 0) return { outcome: "unknown" };
        const page = await utils.comments.replies.fetch({ id: thread.id, cursor });
        pages += 1;
        if (page.items.some((reply) => reply.id === id)) return { outcome: "found", threadId: thread.id, pages };
        cursor = page.nextCursor;
      }
    }
  } catch {
    // Not read is not deleted.
    return { outcome: "unknown" };
  }
  return { outcome: "absent" };
}

/**
 * The comment a link names: loads older pages until it is there (or there are none), then the earlier
 * replies of threads that have some hidden, then scrolls to it and focuses it once. `missing` when it is
 * nowhere (deleted since the link was made).
 */
function useLinkedComment(
  comments: { data?: { pages: { items: CommentThread[] }[] }; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): Promise<unknown> },
  id: string | undefined,
  reveal: (threadId: string, pages: number) => void,
) {
  const utils = trpc.useUtils();
  const [shown, setShown] = useState<string | null>(null);
  const [lookup, setLookup] = useState<{ id: string; result: LinkLookup } | null>(null);
  const lookingFor = useRef<string | null>(null);
  const pages = comments.data?.pages;
  const listed = !!id && !!pages?.some((page) => page.items.some((thread) => thread.id === id || thread.replies.some((reply) => reply.id === id)));
  const looked = lookup && lookup.id === id ? lookup.result : null;
  const found = listed || looked?.outcome === "found";
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = comments;

  useEffect(() => {
    if (!id || !pages || shown === id) return;
    if (found) {
      const element = document.getElementById(commentElementId(id));
      if (!element) return;
      element.scrollIntoView({ block: "center" });
      element.focus({ preventScroll: true });
      setShown(id);
    } else if (hasNextPage && pages.length < MAX_PAGES_TO_FIND) {
      if (!isFetchingNextPage) void fetchNextPage();
    } else if (!isFetchingNextPage && lookingFor.current !== id) {
      lookingFor.current = id;
      const busy = pages.flatMap((page) => page.items).filter((thread) => thread.repliesCursor !== null);
      void findEarlierReply(utils, busy, id).then((result) => {
        if (lookingFor.current !== id) return;
        if (result.outcome === "found") reveal(result.threadId, result.pages);
        setLookup({ id, result });
      });
    }
  }, [id, pages, found, shown, hasNextPage, isFetchingNextPage, fetchNextPage, utils, reveal]);

  return { id, missing: !!id && !!pages && !found && !hasNextPage && looked?.outcome === "absent" };
}
