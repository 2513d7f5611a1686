// The published surface of @promptly/client (what `npm run pack -w @promptly/client` builds): the
// caching client of the runtime REST API, its errors, the one compile and the webhook signature check. Nothing here reaches the
// server's types, so the package carries its own bundled declarations and installs anywhere.
export { createPromptClient } from "./prompt-client.ts";
export type {
  CompiledPrompt, GetPromptOptions, Prompt, PromptClient, PromptClientOptions, PromptSelector, RunOptions, RunResult, RunStreamEvent,
} from "./prompt-client.ts";
export { PromptCompileError, PromptlyApiError, type PromptlyErrorCode } from "./errors.ts";
/** A webhook receiver's check of Promptly's signature (the README's Webhooks section). */
export { verifyWebhookSignature } from "./webhooks.ts";
export type { RuntimeError, RuntimePrompt } from "@promptly/shared";
export { compile, effectiveContract, extractVariables, lint } from "@promptly/shared";
export type { CompileResult, LintResult, PromptVersionBody, VariableContract } from "@promptly/shared";
