// Opening the page a notification leads to reads it, however the page was reached: the bell, the
// notification mail's link, or a link from anywhere else. Each page opened is noted as asked for
// (before a redirect drops its query, as the dashboard's does), and once it shows, the server marks
// the person's unread notifications that lead there read.
import type { AnyRouter } from "@tanstack/react-router";
import { api, trpcClient } from "@/lib/trpc";

/** At most this many pages are told at once (the input's limit). */
const HREFS_AT_ONCE = 10;

export function readNotificationsOnOpen(router: AnyRouter) {
  let opened: string[] = [];
  router.subscribe("onBeforeLoad", ({ toLocation }) => {
    if (!opened.includes(toLocation.href)) opened.push(toLocation.href);
  });
  router.subscribe("onResolved", () => {
    const hrefs = opened.filter((href) => !href.startsWith("/auth")).slice(-HREFS_AT_ONCE);
    opened = [];
    // Someone signed in, unless the bell already knows nothing is unread.
    if (!hrefs.length || !api.auth.me.getData() || api.notifications.unreadCount.getData()?.count === 0) return;
    trpcClient.notifications.markOpened.mutate({ hrefs }).then(
      ({ updated }) => {
        if (updated) void Promise.all([api.notifications.unreadCount.invalidate(), api.notifications.list.invalidate()]);
      },
      // Nothing to tell: the notification stays unread, as it was.
      () => undefined,
    );
  });
}
