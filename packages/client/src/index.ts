// The typed client for internal tooling. Types come from the server's AppRouter, never copied.
import { createTRPCClient, httpBatchLink, type TRPCClient } from "@trpc/client";
import type { AppRouter } from "@promptly/api";
import superjson from "superjson";

export type { AppRouter };
/** Every procedure's input and answer, for tools that build or read them. */
export type { RouterInputs, RouterOutputs } from "@promptly/api";
/**
 * The one compile of the prompt library (the server and the web's Try it panel use the same): fills a
 * version's `{{ variables }}` from values, or names every variable that breaks the contract.
 * `lint` checks a draft the way the server does before saving it.
 */
export { compile, effectiveContract, extractVariables, lint } from "@promptly/shared";
export type { CompileResult, LintResult, PromptVersionBody, VariableContract } from "@promptly/shared";

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
