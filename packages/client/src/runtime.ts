// The published surface of @promptly/client (what `npm run pack -w @promptly/client` builds): the
// caching client of the runtime REST API, its errors and the one compile. Nothing here reaches the
// server's types, so the package carries its own bundled declarations and installs anywhere.
export { createPromptClient } from "./prompt-client.ts";
export type {
  CompiledPrompt, GetPromptOptions, Prompt, PromptClient, PromptClientOptions, PromptSelector, RunOptions, RunResult, RunStreamEvent,
} from "./prompt-client.ts";
export { PromptCompileError, PromptlyApiError, type PromptlyErrorCode } from "./errors.ts";
export type { RuntimeError, RuntimePrompt } from "@promptly/shared";
export { compile, effectiveContract, extractVariables, lint } from "@promptly/shared";
export type { CompileResult, LintResult, PromptVersionBody, VariableContract } from "@promptly/shared";
