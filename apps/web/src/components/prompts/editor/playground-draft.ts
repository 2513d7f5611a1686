// The playground's draft on its way to the new-version editor: the edited body and one model column's
// settings, kept in this tab's session storage under a key the editor's URL names (a reload keeps it).
// Nothing is saved until the author saves it there, through the editor's lint, variables and message.
import type { PromptMessage, PromptType, VariableContract } from "@promptly/shared";
import type { VersionDraft } from "./draft.ts";
import { draftFromVersion } from "./draft.ts";

export interface PlaygroundDraft {
  /** The version the playground started from. */
  fromVersion: number;
  type: PromptType;
  template: string | null;
  messages: PromptMessage[] | null;
  /** The described variables of that version (the editor adds rows for the draft's new variables). */
  variables: VariableContract[];
  model: string;
  config: Record<string, unknown>;
}

const PREFIX = "promptly.playground-draft.";

/** Keeps the draft and answers the key to put in the editor's URL. */
export function keepPlaygroundDraft(draft: PlaygroundDraft): string {
  const key = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  sessionStorage.setItem(PREFIX + key, JSON.stringify(draft));
  return key;
}

/** The kept draft, or null when there is none under the key (another tab, an old link). */
export function readPlaygroundDraft(key: string | undefined): PlaygroundDraft | null {
  if (!key) return null;
  try {
    const text = sessionStorage.getItem(PREFIX + key);
    return text ? (JSON.parse(text) as PlaygroundDraft) : null;
  } catch {
    return null;
  }
}

export function dropPlaygroundDraft(key: string | undefined) {
  if (key) sessionStorage.removeItem(PREFIX + key);
}

type SavedVersion = Parameters<typeof draftFromVersion>[0];

/** The editor's draft for the next version: the latest version's fields, the playground's body and settings over them. */
export function draftFromPlayground(latest: SavedVersion, draft: PlaygroundDraft): VersionDraft {
  return draftFromVersion({
    ...latest,
    type: draft.type,
    template: draft.type === "text" ? (draft.template ?? "") : null,
    messages: draft.type === "chat" ? (draft.messages ?? []) : null,
    variables: draft.variables,
    model: draft.model,
    config: draft.config,
  });
}
