// The version being written, kept as the author types it (defaults, options and config are text), and
// how it becomes the body the shared lint checks and the input the server takes.
import type { RouterInputs, RouterOutputs } from "@promptly/api";
import {
  extractVariables, type ChatRole, type PromptMessage, type PromptType, type PromptVersionBody, type VariableContract, type VariableType,
} from "@promptly/shared";

type SavedVersion = RouterOutputs["prompts"]["get"]["version"];
type VersionInput = Omit<RouterInputs["promptVersions"]["create"], "promptId">;

export interface DraftMessage {
  /** Keeps each message's editor while messages move; never sent. */
  id: number;
  /** A role's message, or a placeholder (where a list of messages goes when the prompt is used). */
  role: ChatRole | "placeholder";
  /** The message's text; a placeholder's name. */
  content: string;
}

/** One row of the variable contract, as typed. */
export interface VariableRow {
  type: VariableType;
  required: boolean;
  default: string;
  /** For enum: comma-separated. */
  options: string;
  description: string;
}

export interface VersionDraft {
  type: PromptType;
  template: string;
  messages: DraftMessage[];
  /** The rows the author has set, by variable name; `contractRows` says which of them are shown and saved. */
  rows: Record<string, VariableRow>;
  model: string;
  config: string;
  /** The tools as JSON text (a list of { name, description, parameters }); empty is none. */
  tools: string;
  /** The response format as JSON text; empty leaves the answer to the model. */
  responseFormat: string;
  commitMessage: string;
}

let lastMessageId = 0;
export const newMessage = (role: DraftMessage["role"], content = ""): DraftMessage => ({ id: ++lastMessageId, role, content });

const NEW_ROW: VariableRow = { type: "string", required: true, default: "", options: "", description: "" };

export function emptyDraft(): VersionDraft {
  return { type: "text", template: "", messages: [newMessage("system"), newMessage("user")], rows: {}, model: "", config: "", tools: "", responseFormat: "", commitMessage: "" };
}

const defaultText = (type: VariableType, value: unknown) =>
  value === undefined || value === null ? "" : type === "json" ? JSON.stringify(value) : String(value);

/** A draft filled from a saved version, for its next version. */
export function draftFromVersion(version: SavedVersion): VersionDraft {
  const empty = emptyDraft();
  const rows: Record<string, VariableRow> = {};
  for (const variable of version.variables) {
    rows[variable.name] = {
      type: variable.type,
      required: variable.required ?? true,
      default: defaultText(variable.type, variable.default),
      options: (variable.options ?? []).join(", "),
      description: variable.description ?? "",
    };
  }
  return {
    ...empty,
    type: version.type,
    template: version.template ?? "",
    messages: version.messages?.length ? version.messages.map((m) => ("type" in m ? newMessage("placeholder", m.name) : newMessage(m.role, m.content))) : empty.messages,
    rows,
    model: version.model,
    config: Object.keys(version.config).length ? JSON.stringify(version.config, null, 2) : "",
    tools: version.tools.length ? JSON.stringify(version.tools, null, 2) : "",
    responseFormat: version.responseFormat ? JSON.stringify(version.responseFormat, null, 2) : "",
  };
}

/**
 * A JSON field's text as the server takes it: empty is `empty`; text that is not JSON is sent as it
 * is, for the shared schema to refuse at its field.
 */
function jsonField<T>(text: string, empty: T): unknown {
  if (!text.trim()) return empty;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Whether a JSON field's text is empty or JSON (the editor says so at the field). */
export const isJsonOrEmpty = (text: string) => jsonField(text, null) !== text;

const textBody = (draft: VersionDraft) =>
  draft.type === "text"
    ? { type: "text" as const, template: draft.template }
    : {
        type: "chat" as const,
        messages: draft.messages.map(({ role, content }): PromptMessage => (role === "placeholder" ? { type: "placeholder", name: content.trim() } : { role, content })),
      };

/** The contract table: one row per variable of the template, then the described ones it no longer uses. */
export function contractRows(draft: VersionDraft): { name: string; row: VariableRow }[] {
  const used = extractVariables(textBody(draft));
  const described = Object.keys(draft.rows).filter((name) => !used.includes(name) && draft.rows[name]!.description.trim());
  return [...used, ...described].map((name) => ({ name, row: draft.rows[name] ?? NEW_ROW }));
}

export const splitList = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** A JSON default that does not parse: the shared lint refuses it ("must be a JSON value"), so it is never saved. */
const NOT_JSON = Symbol("not JSON");

function parseDefault(type: VariableType, text: string): unknown {
  if (!text.trim()) return undefined;
  switch (type) {
    case "number":
      return Number(text);
    case "boolean":
      return text.trim() === "true" ? true : text.trim() === "false" ? false : text;
    case "json":
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return NOT_JSON;
      }
    default:
      return text;
  }
}

function contractOf(name: string, row: VariableRow): VariableContract {
  const value = parseDefault(row.type, row.default);
  const description = row.description.trim();
  return {
    name,
    type: row.type,
    required: row.required,
    ...(value !== undefined && { default: value }),
    ...(description && { description }),
    ...(row.type === "enum" && { options: splitList(row.options) }),
  };
}

/** What the shared lint checks while the author writes. */
export function versionBody(draft: VersionDraft): PromptVersionBody {
  return { ...textBody(draft), variables: contractRows(draft).map(({ name, row }) => contractOf(name, row)) };
}

/** The config text as the server takes it: empty is none; otherwise a JSON object. */
export function parseConfig(text: string): { config: Record<string, unknown> | undefined } | { error: true } {
  if (!text.trim()) return { config: undefined };
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return { config: value as Record<string, unknown> };
  } catch {
    // Reported below, like any other non-object.
  }
  return { error: true };
}

/** The version part of `prompts.create` and `promptVersions.create`. */
export function versionInput(draft: VersionDraft, config: Record<string, unknown> | undefined): VersionInput {
  const body = versionBody(draft);
  return {
    ...body,
    model: draft.model.trim() || undefined,
    config,
    tools: jsonField(draft.tools, undefined) as VersionInput["tools"],
    responseFormat: jsonField(draft.responseFormat, null) as VersionInput["responseFormat"],
    commitMessage: draft.commitMessage.trim() || undefined,
  };
}

/** What "unsaved changes" compares: what the author sees, not the rows they have left behind. */
export function draftSnapshot(draft: VersionDraft): unknown {
  return { ...draft, messages: draft.messages.map(({ role, content }) => [role, content]), rows: contractRows(draft) };
}
