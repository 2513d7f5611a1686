// The typed API: every type comes from the server's AppRouter, none is written by hand.
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCQueryUtils, createTRPCReact } from "@trpc/react-query";
import type { AppRouter } from "@promptly/api";
import { QUERY_GC_TIME_MS, QUERY_RETRIES, QUERY_RETRY_DELAY_MAX_MS } from "@promptly/shared";

/** How long a read counts as fresh: long enough to cover one navigation, short enough not to show old lists. */
const QUERY_STALE_TIME_MS = 30_000;
import superjson from "superjson";
import { toast } from "sonner";

export const trpc = createTRPCReact<AppRouter>();

/** Client errors (4xx) are answers, not outages: retrying them only delays the message. */
function shouldRetry(failureCount: number, error: unknown) {
  const status = (error as { data?: { httpStatus?: number } })?.data?.httpStatus;
  if (status && status >= 400 && status < 500) return false;
  return failureCount < QUERY_RETRIES;
}

let onSessionLost: () => void = () => undefined;
let signingOut = false;

/** What to do once the session is gone (the router sends the person to sign-in). */
export function whenSessionLost(handler: () => void) {
  onSessionLost = handler;
}

/** While we end the session ourselves, its UNAUTHORIZED answers are expected, not a lost session. */
export function setSigningOut(value: boolean) {
  signingOut = value;
}

/**
 * Spec 8: a session that ends while the app is open (it expired, or was ended from another device or
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
      retry: shouldRetry,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, QUERY_RETRY_DELAY_MAX_MS),
      refetchOnWindowFocus: false,
      // What a loader just read is not read again by the components that show it (a page load
      // asked for the current user three times). Changes refresh it: mutations invalidate what they change.
      staleTime: QUERY_STALE_TIME_MS,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: "/trpc", transformer: superjson })],
});

/** Used by route loaders: `api.auth.me.ensureData()`. */
export const api = createTRPCQueryUtils({ queryClient, client: trpcClient });
