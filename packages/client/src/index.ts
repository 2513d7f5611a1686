// The typed clients for internal tooling: the caching prompt client over the runtime API (/api/v1, an
// API key), and the tRPC client of the whole app (/trpc). Types come from the shared zod schemas and the
// server's AppRouter, never copied.
import { createTRPCClient, httpBatchLink, type TRPCClient } from "@trpc/client";
import type { AppRouter } from "@promptly/api";
import superjson from "superjson";

export type { AppRouter };
export { createPromptClient } from "./prompt-client.ts";
export type {
  CompiledPrompt, GetPromptOptions, Prompt, PromptClient, PromptClientOptions, PromptSelector, RunOptions, RunResult, RunStreamEvent,
} from "./prompt-client.ts";
export { PromptCompileError, PromptlyApiError, type PromptlyErrorCode } from "./errors.ts";
/** Checks a webhook delivery's Promptly-Signature header on the receiving side. */
export { verifyWebhookSignature } from "./webhooks.ts";
/** What the runtime API answers, inferred from the schemas the server validates with. */
export type { RuntimeError, RuntimePrompt } from "@promptly/shared";
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
  /**
   * A team API key: the client then acts for that team (a viewer of it, an editor with the `write`
   * scope) on the procedures of its prompts, without a session. Without it, send a session cookie in `headers`.
   */
  apiKey?: string;
  /** Extra headers for every request, e.g. { cookie: "promptly_session=…" }. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  fetch?: typeof fetch;
}

/** The typed client of the whole tRPC API, with a session cookie (in `headers`) or an API key. */
export function createClient({ url, apiKey, headers, fetch }: ClientOptions): TRPCClient<AppRouter> {
  const authorization: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${url.replace(/\/$/, "")}/trpc`,
        transformer: superjson,
        headers: async () => ({ ...(typeof headers === "function" ? await headers() : headers), ...authorization }),
        fetch,
      }),
    ],
  });
}
