// The signed-in person (auth.me), loaded by the root route's loader and kept in the query cache.
import type { RouterOutputs } from "@promptly/api";
import type { Caller } from "@promptly/shared";
import { shouldRetryReachedRead } from "@/lib/read-failure";
import { api, trpc } from "@/lib/trpc";

export type Me = NonNullable<RouterOutputs["auth"]["me"]>;

export function useMe() {
  return trpc.auth.me.useQuery();
}

/**
 * The signed-in person for the root loader and the guards (null when signed out). A server that cannot
 * be reached fails this at once, so the page says so within a moment and retries itself.
 */
export function ensureMe() {
  return api.auth.me.ensureData(undefined, { retry: shouldRetryReachedRead });
}

/** What the shared permission rules need to know about the signed-in person. */
export function callerOf(me: Me | null | undefined): Caller | null {
  return me ? { role: me.role, isSuperUser: me.isSuperUser } : null;
}
