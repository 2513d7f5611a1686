// Export of a team's library: what the caller may read in the team (live prompts: archived ones are
// out of the library) in the versioned format of packages/shared, as JSON or as a zip of one Markdown
// file per version.
import { strToU8, zipSync } from "fflate";
import { z } from "zod";
import type { DbOrTx } from "@promptly/db";
import {
  LIBRARY_FORMAT, type PromptMessage, LIBRARY_FORMAT_VERSION, effectiveContract, type PromptTool, type ResponseFormat,
  type LibraryDocument, type LibraryPrompt, type LibraryVersion, type VariableContract,
} from "@promptly/shared";
import type { Caller } from "../access/access.ts";
import { promptVisibility } from "../access/visibility.ts";


export interface VersionRow {
  promptId: string;
  version: number;
  type: "text" | "chat";
  template: string | null;
  messages: PromptMessage[] | null;
  variables: Record<string, unknown>[];
  model: string;
  config: Record<string, unknown>;
  tools: PromptTool[];
  responseFormat: ResponseFormat | null;
  commitMessage: string;
  createdAt: Date;
}

/** A version's contract in force (each variable the template uses, described or a required string), as the format writes it. */
export const contractOf = (version: Pick<VersionRow, "type" | "variables"> & { template?: string | null; messages?: VersionRow["messages"] }): LibraryVersion["variables"] =>
  effectiveContract({ ...version, variables: version.variables as unknown as VariableContract[] }).map((variable) => ({ ...variable }));

/** The team's live prompts the caller may read, with every version and label, in name order. */
export async function exportLibrary(db: DbOrTx, caller: Caller, teamId: string, now: Date): Promise<LibraryDocument> {
  const { joins, visible } = promptVisibility(caller);
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true } });
  const prompts = await db.$queryRaw<{ id: string; name: string; title: string; description: string; tags: string[]; visibility: LibraryPrompt["visibility"] }[]>`
    SELECT p.id::text AS id, p.name, p.title, p.description, p.tags, p.visibility::text AS visibility
    FROM prompts p ${joins}
    WHERE p.team_id = ${teamId}::uuid AND p.archived_at IS NULL AND ${visible}
    ORDER BY p.name COLLATE "C"`;
  const ids = prompts.map((prompt) => prompt.id);
  const [versions, labels] = ids.length
    ? await Promise.all([
        db.$queryRaw<VersionRow[]>`
          SELECT v.prompt_id::text AS "promptId", v.version, v.type::text AS type, v.template, v.messages, v.variables, v.model, v.config,
                 v.tools, v.response_format AS "responseFormat", v.commit_message AS "commitMessage", v.created_at AS "createdAt"
          FROM prompt_versions v WHERE v.prompt_id = ANY(${ids}::uuid[]) ORDER BY v.prompt_id, v.version`,
        db.promptLabel.findMany({ where: { promptId: { in: ids } }, select: { promptId: true, name: true, version: true }, orderBy: { name: "asc" } }),
      ])
    : [[], []];
  return {
    format: LIBRARY_FORMAT,
    version: LIBRARY_FORMAT_VERSION,
    exportedAt: now.toISOString(),
    team: { name: team.name },
    prompts: prompts.map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      tags: prompt.tags,
      visibility: prompt.visibility,
      labels: Object.fromEntries(labels.filter((label) => label.promptId === prompt.id).map((label) => [label.name, label.version])),
      versions: versions
        .filter((version) => version.promptId === prompt.id)
        .map((version) => ({
          version: version.version,
          type: version.type,
          ...(version.type === "text" ? { template: version.template ?? "" } : { messages: version.messages ?? [] }),
          variables: contractOf(version),
          model: version.model,
          config: version.config,
          tools: version.tools,
          responseFormat: version.responseFormat,
          commitMessage: version.commitMessage,
          createdAt: version.createdAt.toISOString(),
        })),
    })),
  };
}

/** A value as YAML: JSON is YAML's flow style, so every string and object is written unambiguously. */
const yaml = (value: unknown) => JSON.stringify(value);

/** One Markdown file: YAML front matter, then the template (or each message under a `## role` heading). */
function versionMarkdown(prompt: LibraryPrompt, version: LibraryVersion): string {
  const labels = Object.entries(prompt.labels).filter(([, number]) => number === version.version).map(([label]) => label);
  const front = [
    ["name", prompt.name], ["title", prompt.title], ["description", prompt.description], ["version", version.version],
    ["type", version.type], ["visibility", prompt.visibility], ["tags", prompt.tags], ["labels", labels], ["model", version.model],
    ["config", version.config], ["tools", version.tools], ["responseFormat", version.responseFormat], ["variables", version.variables], ["commitMessage", version.commitMessage], ["createdAt", version.createdAt],
  ].map(([key, value]) => `${key as string}: ${yaml(value)}`);
  const body = version.type === "text" ? (version.template ?? "") : (version.messages ?? [])
          .map((message) => ("type" in message ? `## placeholder: ${message.name}` : `## ${message.role}\n\n${message.content}`))
          .join("\n\n");
  return `---\n${front.join("\n")}\n---\n\n${body}\n`;
}

/** A prompt's file names in the zip; a folder called like one gets a '~' so it can never be a file too. */
const ZIP_FILE_NAME = /^v\d+\.md$/;

/**
 * A name as a folder of the zip that cannot leave the archive, whatever the database holds: '/' or
 * '\' between parts, no empty or '.' part, '..' as '_', other characters than a name's as '_'.
 * A valid name other than one with a `v<N>.md` folder stays as it is.
 */
function zipFolder(name: string): string {
  const parts = name
    .split(/[\\/]/)
    .filter((part) => part !== "" && part !== ".")
    .map((part) => (part === ".." ? "_" : part.replace(/[^a-z0-9._-]/g, "_")))
    .map((part) => (ZIP_FILE_NAME.test(part) ? `${part}~` : part));
  return parts.join("/") || "_";
}

/** Each prompt's folder, one of its own: names that keep their folder first, then the others, with `~2`, `~3`... on a clash. */
function zipFolders(names: readonly string[]): string[] {
  const folders = names.map(zipFolder);
  const taken = new Set(folders.filter((folder, index) => folder === names[index]));
  return folders.map((folder, index) => {
    if (folder === names[index]) return folder;
    let unique = folder;
    for (let n = 2; taken.has(unique); n++) unique = `${folder}~${n}`;
    taken.add(unique);
    return unique;
  });
}

/** The zip of `<prompt name>/v<N>.md`, one file per version (see zipFolder for names that are no safe path). */
function libraryZip(document: LibraryDocument): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const folders = zipFolders(document.prompts.map((prompt) => prompt.name));
  document.prompts.forEach((prompt, index) => {
    for (const version of prompt.versions) files[`${folders[index]}/v${version.version}.md`] = strToU8(versionMarkdown(prompt, version));
  });
  return zipSync(files, { level: 6, mtime: new Date(document.exportedAt) });
}

export const exportFile = z.object({ fileName: z.string(), mimeType: z.string(), encoding: z.enum(["utf8", "base64"]), data: z.string() });

/** The export as a file to download: JSON text, or the zip in base64 (tRPC carries text). */
export async function exportLibraryFile(db: DbOrTx, caller: Caller, teamId: string, format: "json" | "zip", now: Date) {
  const document = await exportLibrary(db, caller, teamId, now);
  const stem = `promptly-${document.team.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "team"}-${now.toISOString().slice(0, 10)}`;
  if (format === "json") return { fileName: `${stem}.json`, mimeType: "application/json", encoding: "utf8" as const, data: JSON.stringify(document, null, 2) };
  return { fileName: `${stem}.zip`, mimeType: "application/zip", encoding: "base64" as const, data: Buffer.from(libraryZip(document)).toString("base64") };
}
