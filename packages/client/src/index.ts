// The typed client for internal tooling. Types come from the server's AppRouter, never copied.
import { createTRPCClient, httpBatchLink, type TRPCClient } from "@trpc/client";
import type { AppRouter } from "@promptly/api";
import superjson from "superjson";

export type { AppRouter };
/** Every procedure's input and answer, for tools that build or read them. */
export type { RouterInputs, RouterOutputs } from "@promptly/api";

export interface ClientOptions {
  /** Base URL of a Promptly server, e.g. http://localhost:3000 (the API lives at /trpc). */
  url: string;
  /** Extra headers for every request, e.g. { cookie: "promptly_session=…" }. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  fetch?: typeof fetch;
}

export function createClient({ url, headers, fetch }: ClientOptions): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${url.replace(/\/$/, "")}/trpc`,
        transformer: superjson,
        headers: typeof headers === "function" ? headers : () => headers ?? {},
        fetch,
      }),
    ],
  });
}
