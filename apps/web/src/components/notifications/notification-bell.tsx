// The header's bell: the unread count (asked every 30 s and when the window regains focus),
// and a popover with the person's notifications, newest first, each a link that marks it read; 'Mark
// all as read'. Hidden when the person turned in-app notifications off.
import { useState } from "react";
import { useRouter } from "@tanstack/react-router";
import { Bell } from "lucide-react";
import { NOTIFICATIONS_POLL_MS } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";

type NotificationItem = RouterOutputs["notifications"]["list"]["items"][number];

/** The bell's accessible name: "Notifications, 3 unread", or just "Notifications". */
const bellName = (count: number | undefined) => (count ? `Notifications, ${count} unread` : "Notifications");

export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const unread = trpc.notifications.unreadCount.useQuery(undefined, {
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: true,
    // Coming back to the tab asks again unless the count is only seconds old.
    staleTime: 5_000,
  });
  if (unread.data && !unread.data.enabled) return null;
  const count = unread.data?.count;

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={bellName(count)} data-testid="notification-bell">
          <Bell aria-hidden="true" />
          {!!count && (
            <span
              aria-hidden="true"
              className="absolute -right-0.5 -top-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-semibold leading-none text-white"
            >
              {count > 99 ? "99+" : count}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" aria-label="Notifications" className="w-[min(24rem,calc(100vw-1rem))] p-0">
        {open && <NotificationPanel unreadCount={count ?? 0} onNavigate={() => setOpen(false)} />}
      </PopoverContent>
    </Popover>
  );
}

function NotificationPanel({ unreadCount, onNavigate }: { unreadCount: number; onNavigate(): void }) {
  const utils = trpc.useUtils();
  // Asked again each time the popover opens: the count may have moved since.
  const list = trpc.notifications.list.useInfiniteQuery({}, { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 0 });
  const markRead = trpc.notifications.markRead.useMutation({
    onSettled: () => Promise.all([utils.notifications.unreadCount.invalidate(), utils.notifications.list.invalidate()]),
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid">
      <div className="flex items-center justify-between gap-2 border-b border-border px-4 py-2">
        <h2 className="text-sm font-semibold">Notifications</h2>
        <Button variant="ghost" size="sm" disabled={unreadCount === 0 || markRead.isPending} onClick={() => markRead.mutate(undefined)}>
          Mark all as read
        </Button>
      </div>
      <div className="max-h-[min(28rem,70vh)] overflow-y-auto">
        {list.isPending ? (
          <div className="grid gap-2 p-4" role="status" aria-label="Loading notifications">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : list.isError ? (
          <LoadFailure title="The notifications could not be loaded" error={list.error} onRetry={() => list.refetch()} className="m-4" />
        ) : items.length === 0 ? (
          <p className="p-4 text-sm text-muted-foreground">No notifications yet.</p>
        ) : (
          <ul aria-label="Notifications, newest first">
            {items.map((item) => (
              <NotificationRow
                key={item.id}
                item={item}
                onOpen={() => {
                  if (!item.readAt) markRead.mutate({ ids: [item.id] });
                  onNavigate();
                }}
              />
            ))}
          </ul>
        )}
        {list.hasNextPage && (
          <div className="border-t border-border p-2">
            <Button variant="ghost" size="sm" className="w-full" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {list.isFetchingNextPage ? "Loading..." : "Show older notifications"}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

function NotificationRow({ item, onOpen }: { item: NotificationItem; onOpen(): void }) {
  const router = useRouter();
  const unread = !item.readAt;
  return (
    <li className="border-b border-border last:border-b-0">
      <a
        href={item.href}
        className="flex gap-3 px-4 py-3 text-sm outline-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
        onClick={(event) => {
          onOpen();
          // A plain click stays in the app; a modified one opens a tab as links do.
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          void router.navigate({ href: item.href });
        }}
      >
        <span aria-hidden="true" className={cn("mt-1.5 size-2 shrink-0 rounded-full", unread ? "bg-primary" : "bg-transparent")} />
        <span className="grid min-w-0 gap-0.5">
          <span className={cn("break-words", unread && "font-medium")}>
            {item.text}
            {unread && <span className="sr-only"> (unread)</span>}
          </span>
          <span className="text-xs text-muted-foreground">{formatDateTime(item.createdAt)}</span>
        </span>
      </a>
    </li>
  );
}
