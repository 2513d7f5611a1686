// The prompt page's data, typed by the server's answers.
import type { RouterOutputs } from "@promptly/api";

export type PromptDetail = RouterOutputs["prompts"]["get"];
export type PromptVersion = PromptDetail["version"];
export type VersionHistoryItem = RouterOutputs["promptVersions"]["list"]["items"][number];
