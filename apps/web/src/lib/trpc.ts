// The typed API: every type comes from the server's AppRouter, none is written by hand.
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCQueryUtils, createTRPCReact } from "@trpc/react-query";
import type { AppRouter } from "@promptly/api";
import { QUERY_GC_TIME_MS } from "@promptly/shared";
import { readRetryDelay, shouldRetryRead } from "./read-failure.ts";

/** How long a read counts as fresh: long enough to cover one navigation, short enough not to show old lists. */
const QUERY_STALE_TIME_MS = 30_000;
import superjson from "superjson";
import { toast } from "sonner";

export const trpc = createTRPCReact<AppRouter>();

let onSessionLost: () => void = () => undefined;
let signingOut = false;

/** Requests sent and not yet answered. */
let travelling = 0;
const whenQuiet: (() => void)[] = [];
/** While set, new requests wait for it before they leave (a sign-out is under way). */
let hold: Promise<void> | null = null;

/**
 * The app's requests, except the sign-out itself. A sign-out ends the session only once none of them is
 * on its way, and holds new ones until it is over: the server reads a request's session when it arrives,
 * so one that arrived after the session ended would be answered 401 (and the browser logs every 401).
 */
async function sessionAwareFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  while (hold) await hold;
  travelling++;
  try {
    return await fetch(input, init);
  } finally {
    travelling--;
    if (travelling === 0) for (const resolve of whenQuiet.splice(0)) resolve();
  }
}

/** What to do once the session is gone (the router sends the person to sign-in). */
export function whenSessionLost(handler: () => void) {
  onSessionLost = handler;
}

/**
 * Starts a sign-out: new requests wait, `quiet` resolves once the ones already sent are answered, and
 * UNAUTHORIZED answers meanwhile are expected, not a lost session. If the sign-out fails, `resume` sends
 * what waited; once it succeeded and the screens that asked are gone, `finish` drops it.
 */
export function beginSignOut() {
  let release: () => void = () => undefined;
  hold = new Promise<void>((resolve) => (release = resolve));
  signingOut = true;
  const end = () => {
    hold = null;
    signingOut = false;
  };
  return {
    quiet: travelling === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenQuiet.push(resolve)),
    resume() {
      end();
      release();
    },
    finish: end,
  };
}

/**
 * A session that ends while the app is open (it expired, or was ended from another device or
 * by a password change) answers UNAUTHORIZED, which the server uses for nothing else (a wrong password
 * is BAD_REQUEST). Someone we believed signed in is told once and sent to sign-in.
 */
function detectSessionLost(error: unknown) {
  if ((error as { data?: { code?: string } })?.data?.code !== "UNAUTHORIZED") return;
  if (signingOut || !api.auth.me.getData()) return;
  api.auth.me.setData(undefined, null);
  toast.error("Authentication Error", { id: "session-lost", description: "Please log in again to continue." });
  onSessionLost();
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: detectSessionLost }),
  mutationCache: new MutationCache({ onError: detectSessionLost }),
  defaultOptions: {
    queries: {
      gcTime: QUERY_GC_TIME_MS,
      // Client errors (4xx) are answers, not outages: retrying them only delays the message.
      retry: shouldRetryRead,
      retryDelay: readRetryDelay,
      refetchOnWindowFocus: false,
      // What a loader just read is not read again by the components that show it (a page load
      // asked for the current user three times). Changes refresh it: mutations invalidate what they change.
      staleTime: QUERY_STALE_TIME_MS,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      // Subscriptions (the playground's runs) are server-sent events: the input travels in the URL.
      condition: (op) => op.type === "subscription",
      true: httpSubscriptionLink({ url: "/trpc", transformer: superjson }),
      false: splitLink({
        condition: (op) => op.path === "auth.signOut",
        true: httpBatchLink({ url: "/trpc", transformer: superjson }),
        false: httpBatchLink({ url: "/trpc", transformer: superjson, fetch: sessionAwareFetch }),
      }),
    }),
  ],
});

/** Used by route loaders: `api.auth.me.ensureData()`. */
export const api = createTRPCQueryUtils({ queryClient, client: trpcClient });
