// The playground as a person left it on a prompt: its columns (version, connection, model, parameters,
// last conversation and run), the variables typed and the edited body. Kept in this browser's local
// storage under the person's id and the prompt's, so a reload (or a later visit) finds it as it was
// until Reset. Nothing of it is sent anywhere: runs are recorded on the server as they happen.
import superjson from "superjson";
import type { ChatMessage, PromptMessage } from "@promptly/shared";
import type { ColumnSettings } from "./playground-settings.ts";
import type { FieldValue } from "./try-values.ts";
import type { ColumnVersion, PlaygroundColumn, Turn } from "./use-playground-columns.ts";
import { KEPT_PLAYGROUND_PREFIX } from "@/lib/kept-playgrounds";

interface KeptColumn {
  version: ColumnVersion;
  settings: ColumnSettings;
  turns: Turn[];
  run: PlaygroundColumn["run"];
}

export interface KeptPlayground {
  /** The version the edited body started from: another version's edit is not restored over this one. */
  fromVersion: number;
  template: string | null;
  messages: PromptMessage[] | null;
  fields: Record<string, FieldValue>;
  fills: Record<string, ChatMessage[]>;
  columns: KeptColumn[];
}

const keyOf = (userId: string, promptId: string) => `${KEPT_PLAYGROUND_PREFIX}${userId}.${promptId}`;

/** The kept playground, or null when there is none (or it cannot be read: a fresh one then). */
export function readPlayground(userId: string, promptId: string): KeptPlayground | null {
  try {
    const text = localStorage.getItem(keyOf(userId, promptId));
    const kept = text ? superjson.parse<KeptPlayground>(text) : null;
    return kept && Array.isArray(kept.columns) && kept.columns.length > 0 ? kept : null;
  } catch {
    return null;
  }
}

export function keepPlayground(userId: string, promptId: string, playground: KeptPlayground): void {
  try {
    localStorage.setItem(keyOf(userId, promptId), superjson.stringify(playground));
  } catch {
    // A full or disabled storage only loses the convenience of a restored playground.
  }
}

export function forgetPlayground(userId: string, promptId: string): void {
  try {
    localStorage.removeItem(keyOf(userId, promptId));
  } catch {
    // As above.
  }
}
