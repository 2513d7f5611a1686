// The signed-in person (auth.me), loaded by the root route's loader and kept in the query cache.
import type { RouterOutputs } from "@promptly/api";
import type { Caller } from "@promptly/shared";
import { trpc } from "@/lib/trpc";

export type Me = NonNullable<RouterOutputs["auth"]["me"]>;

export function useMe() {
  return trpc.auth.me.useQuery();
}

/** What the shared permission rules need to know about the signed-in person. */
export function callerOf(me: Me | null | undefined): Caller | null {
  return me ? { role: me.role, isSuperUser: me.isSuperUser } : null;
}
