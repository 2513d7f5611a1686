// A stored version as the shared template functions take it, and the JSON the page prints.
import type { PromptVersionBody } from "@promptly/shared";
import type { PromptVersion } from "./types.ts";

export function versionBody(version: PromptVersion): PromptVersionBody {
  return version.type === "chat"
    ? { type: "chat", messages: version.messages ?? [], variables: version.variables }
    : { type: "text", template: version.template ?? "", variables: version.variables };
}

export const prettyJson = (value: unknown) => JSON.stringify(value, null, 2) ?? "";

