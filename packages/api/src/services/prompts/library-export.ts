// Export of a team's library: what the caller may read in the team (live prompts: archived ones are
// out of the library) in the versioned format of packages/shared, as JSON or as a zip of one Markdown
// file per version.
import { strToU8, zipSync } from "fflate";
import pLimit from "p-limit";
import { z } from "zod";
import { Prisma, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  LIBRARY_FORMAT, type PromptMessage, LIBRARY_FORMAT_VERSION, effectiveContract, type PromptTool, type ResponseFormat,
  type LibraryPrompt, type LibraryVersion, type VariableContract, type librarySplitSchema,
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

/** A prompt as exported, without its versions (they come a page at a time); its splits as written (the format reads them loosely). */
type PromptHead = Omit<LibraryPrompt, "versions" | "splits"> & { splits?: Record<string, z.infer<typeof librarySplitSchema>> };

/** Some of a prompt's versions, in order; `first` on the prompt's first part (which has none when the prompt has none). */
interface LibraryPart {
  prompt: PromptHead;
  first: boolean;
  versions: LibraryVersion[];
}

/** Prompts read per statement (a few kB each), and versions (each up to 100,000 characters of text, and a prompt has any number). */
const EXPORT_PROMPTS_PAGE = 100;
const EXPORT_VERSIONS_PAGE = 25;

const exportedVersion = (version: Omit<VersionRow, "promptId">): LibraryVersion => ({
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
});

/**
 * How long an export's snapshot may stay open. A transaction that long keeps vacuum from clearing rows
 * that died since it began, so it is bounded; ten minutes passes gigabytes of versions at the rate the
 * command line writes them (200 MB in under twenty seconds) with room for a slow reader on its stdout.
 */
const EXPORT_SNAPSHOT_TIMEOUT_MS = 10 * 60_000;

/**
 * `read` in one read-only REPEATABLE READ transaction: every page of the export sees the library as it
 * was at the first read, so a prompt renamed, a version added or a label moved meanwhile is not half in it.
 */
function inSnapshot<T>(db: Db, read: (tx: DbTransaction) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    // Before the first read, which takes the snapshot.
    await tx.$executeRaw`SET TRANSACTION READ ONLY`;
    return read(tx);
  }, { isolationLevel: "RepeatableRead", timeout: EXPORT_SNAPSHOT_TIMEOUT_MS });
}

/**
 * The team's live prompts the caller may read, in name order, with every version and label, read a page
 * at a time: what is held at once is one page, whatever the library's size. The pages are one document
 * only when read in one snapshot (inSnapshot); otherwise a prompt renamed between two may come twice.
 */
async function* libraryParts(db: DbOrTx, caller: Caller, teamId: string): AsyncGenerator<LibraryPart> {
  const { joins, visible } = promptVisibility(caller);
  let afterName: string | null = null;
  for (;;) {
    const prompts: { id: string; name: string; title: string; description: string; tags: string[]; visibility: LibraryPrompt["visibility"] }[] = await db.$queryRaw`
      SELECT p.id::text AS id, p.name, p.title, p.description, p.tags, p.visibility::text AS visibility
      FROM prompts p ${joins}
      WHERE p.team_id = ${teamId}::uuid AND p.archived_at IS NULL AND ${visible}
        ${afterName === null ? Prisma.empty : Prisma.sql`AND p.name COLLATE "C" > ${afterName} COLLATE "C"`}
      ORDER BY p.name COLLATE "C" LIMIT ${EXPORT_PROMPTS_PAGE}`;
    if (!prompts.length) return;
    const ids = prompts.map((prompt) => prompt.id);
    const labels = await db.promptLabel.findMany({
      where: { promptId: { in: ids } }, select: { promptId: true, name: true, version: true, candidateVersion: true, candidateWeight: true }, orderBy: { name: "asc" },
    });
    const heads: PromptHead[] = prompts.map((prompt) => {
      const own = labels.filter((label) => label.promptId === prompt.id);
      const splits = own.flatMap((label) =>
        label.candidateVersion !== null && label.candidateWeight !== null ? [[label.name, { version: label.candidateVersion, weight: label.candidateWeight }] as const] : [],
      );
      return {
        name: prompt.name,
        title: prompt.title,
        description: prompt.description,
        tags: prompt.tags,
        visibility: prompt.visibility,
        labels: Object.fromEntries(own.map((label) => [label.name, label.version])),
        // Only when a label is split: a library without splits exports as it did before splits existed.
        ...(splits.length ? { splits: Object.fromEntries(splits) } : {}),
      };
    });
    // The page's versions in the prompts' order (their place in `ids`), then by number; `started` prompts have had their first part.
    let started = 0;
    let after = { place: 0, version: 0 };
    for (;;) {
      const rows = await db.$queryRaw<(Omit<VersionRow, "promptId"> & { place: number })[]>`
        SELECT page.place::int AS place, v.version, v.type::text AS type, v.template, v.messages, v.variables, v.model, v.config,
               v.tools, v.response_format AS "responseFormat", v.commit_message AS "commitMessage", v.created_at AS "createdAt"
        FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS page(id, place)
        CROSS JOIN LATERAL (
          -- Each prompt's next versions by its (prompt_id, version) index: a statement reads a page's worth, not the page's whole history.
          SELECT * FROM prompt_versions v
          WHERE v.prompt_id = page.id AND v.version > CASE WHEN page.place = ${after.place}::bigint THEN ${after.version}::int ELSE 0 END
          ORDER BY v.version LIMIT ${EXPORT_VERSIONS_PAGE}
        ) v
        WHERE page.place >= ${after.place}::bigint
        ORDER BY page.place, v.version LIMIT ${EXPORT_VERSIONS_PAGE}`;
      for (let index = 0; index < rows.length; ) {
        const place = rows[index]!.place;
        // Prompts before this one that have no versions still come, with none.
        for (; started < place - 1; started++) yield { prompt: heads[started]!, first: true, versions: [] };
        const first = started < place;
        started = place;
        const versions: LibraryVersion[] = [];
        for (; index < rows.length && rows[index]!.place === place; index++) versions.push(exportedVersion(rows[index]!));
        yield { prompt: heads[place - 1]!, first, versions };
      }
      if (rows.length < EXPORT_VERSIONS_PAGE) break;
      after = { place: rows.at(-1)!.place, version: rows.at(-1)!.version };
    }
    for (; started < heads.length; started++) yield { prompt: heads[started]!, first: true, versions: [] };
    if (prompts.length < EXPORT_PROMPTS_PAGE) return;
    afterName = prompts.at(-1)!.name;
  }
}

/** JSON.stringify(value, null, 2) as it reads nested `depth` levels deep (a string's line breaks are escaped, so every line is structure). */
const jsonAt = (value: unknown, depth: number) => JSON.stringify(value, null, 2).replaceAll("\n", `\n${"  ".repeat(depth)}`);

/** `jsonAt(value, depth)` of an object whose last key holds an empty array, cut before that `[]`: the array's items follow. */
function openLastArray(value: object, depth: number): string {
  const text = jsonAt(value, depth);
  const end = `[]\n${"  ".repeat(depth)}}`;
  if (!text.endsWith(end)) throw new Error("The last key does not hold an empty array");
  return text.slice(0, -end.length);
}

/**
 * The library as JSON text, a part at a time: exactly JSON.stringify(document, null, 2) of the whole
 * document (the format's order of keys), without ever holding the document.
 */
async function* libraryJson(db: DbOrTx, caller: Caller, teamId: string, now: Date): AsyncGenerator<string> {
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true } });
  yield openLastArray({ format: LIBRARY_FORMAT, version: LIBRARY_FORMAT_VERSION, exportedAt: now.toISOString(), team: { name: team.name }, prompts: [] }, 0);
  // Items of `prompts` stand 2 levels deep, their versions 4.
  let prompts = 0;
  let versions = 0;
  const closePrompt = () => `${versions ? `\n${"  ".repeat(3)}]` : "[]"}\n${"  ".repeat(2)}}`;
  for await (const part of libraryParts(db, caller, teamId)) {
    let text = "";
    if (part.first) {
      if (prompts) text += closePrompt();
      text += `${prompts ? "," : "["}\n${"  ".repeat(2)}${openLastArray({ ...part.prompt, versions: [] }, 2)}`;
      prompts += 1;
      versions = 0;
    }
    for (const version of part.versions) text += `${versions++ ? "," : "["}\n${"  ".repeat(4)}${jsonAt(version, 4)}`;
    yield text;
  }
  yield `${prompts ? `${closePrompt()}\n  ]` : "[]"}\n}`;
}

/**
 * The library's JSON text to `write`, a part at a time, all read in one snapshot: the next part once
 * `write` has resolved (the snapshot stays open until then, and is ended when `write` throws).
 */
export function writeLibraryJson(db: Db, caller: Caller, teamId: string, now: Date, write: (text: string) => Promise<void>): Promise<void> {
  return inSnapshot(db, async (tx) => {
    for await (const text of libraryJson(tx, caller, teamId, now)) await write(text);
  });
}

/** A value as YAML: JSON is YAML's flow style, so every string and object is written unambiguously. */
const yaml = (value: unknown) => JSON.stringify(value);

/**
 * The labels on a version, as its file's front matter lists them: plain names, a split label on both its
 * versions (its own and its candidate, as the runtime lists it), with the split beside them in `splits`,
 * shaped as the JSON export's, so a script reading the files gets label names it can use.
 */
function versionLabels(prompt: PromptHead, version: number) {
  const labels = Object.entries(prompt.labels).filter(([label, number]) => number === version || prompt.splits?.[label]?.version === version);
  const splits = labels.flatMap(([label]) => (prompt.splits?.[label] ? [[label, prompt.splits[label]] as const] : []));
  return { labels: labels.map(([label]) => label), splits: Object.fromEntries(splits) };
}

/** One Markdown file: YAML front matter, then the template (or each message under a `## role` heading). */
function versionMarkdown(prompt: PromptHead, version: LibraryVersion): string {
  const { labels, splits } = versionLabels(prompt, version.version);
  const front = [
    ["name", prompt.name], ["title", prompt.title], ["description", prompt.description], ["version", version.version],
    ["type", version.type], ["visibility", prompt.visibility], ["tags", prompt.tags], ["labels", labels],
    // Only on a split label's versions: a file without one reads as it did before splits existed.
    ...(Object.keys(splits).length ? [["splits", splits]] : []), ["model", version.model],
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
async function libraryZip(db: DbOrTx, caller: Caller, teamId: string, now: Date): Promise<Uint8Array> {
  const names: string[] = [];
  const files: [number, string, Uint8Array][] = [];
  for await (const part of libraryParts(db, caller, teamId)) {
    if (part.first) names.push(part.prompt.name);
    for (const version of part.versions) files.push([names.length - 1, `v${version.version}.md`, strToU8(versionMarkdown(part.prompt, version))]);
  }
  const folders = zipFolders(names);
  const zip: Record<string, Uint8Array> = {};
  for (const [index, file, data] of files) zip[`${folders[index]}/${file}`] = data;
  return zipSync(zip, { level: 6, mtime: now });
}

export const exportFile = z.object({ fileName: z.string(), mimeType: z.string(), encoding: z.enum(["utf8", "base64"]), data: z.string() });

/**
 * Exports a process builds at once; the others wait their turn. Each holds a connection of the pool (ten by
 * default) for its whole snapshot and build, so ten at once on a large library would leave every other
 * request of the server waiting for one.
 */
export const libraryExports = pLimit(2);

/** The export as a file to download: JSON text, or the zip in base64 (tRPC carries text, so the whole file is one string). */
export function exportLibraryFile(db: Db, caller: Caller, teamId: string, format: "json" | "zip", now: Date) {
  return libraryExports(() => inSnapshot(db, (tx) => libraryFile(tx, caller, teamId, format, now)));
}

async function libraryFile(db: DbTransaction, caller: Caller, teamId: string, format: "json" | "zip", now: Date) {
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true } });
  const stem = `promptly-${team.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "team"}-${now.toISOString().slice(0, 10)}`;
  if (format === "json") {
    const parts: string[] = [];
    for await (const text of libraryJson(db, caller, teamId, now)) parts.push(text);
    return { fileName: `${stem}.json`, mimeType: "application/json", encoding: "utf8" as const, data: parts.join("") };
  }
  return { fileName: `${stem}.zip`, mimeType: "application/zip", encoding: "base64" as const, data: Buffer.from(await libraryZip(db, caller, teamId, now)).toString("base64") };
}
