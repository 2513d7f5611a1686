// The typed API: every type comes from the server's AppRouter, none is written by hand.
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCQueryUtils, createTRPCReact } from "@trpc/react-query";
import type { AppRouter } from "@promptly/api";
import { QUERY_GC_TIME_MS, QUERY_RETRIES, QUERY_RETRY_DELAY_MAX_MS } from "@promptly/shared";
import superjson from "superjson";

export const trpc = createTRPCReact<AppRouter>();

/** Client errors (4xx) are answers, not outages: retrying them only delays the message. */
function shouldRetry(failureCount: number, error: unknown) {
  const status = (error as { data?: { httpStatus?: number } })?.data?.httpStatus;
  if (status && status >= 400 && status < 500) return false;
  return failureCount < QUERY_RETRIES;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: QUERY_GC_TIME_MS,
      retry: shouldRetry,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, QUERY_RETRY_DELAY_MAX_MS),
      refetchOnWindowFocus: false,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: "/trpc", transformer: superjson })],
});

/** Used by route loaders: `api.auth.me.ensureData()`. */
export const api = createTRPCQueryUtils({ queryClient, client: trpcClient });
