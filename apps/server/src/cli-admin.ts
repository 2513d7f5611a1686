// Admin commands (loaded by cli.ts for every command but eval): npm run cli -- grant-super-user <email>;
// prompts export|import for git-based workflows; backup|restore of the database and the avatars;
// ingest-retry of the production signals set aside after failing to merge again and again.
import { once } from "node:events";
import { join } from "node:path";
import { createDb } from "@promptly/db";
import {
  DomainError, createS3Storage, exportLibraryForCli, findTeamForCommandLine, importLibraryForCli, retrySetAsideIngestion, setAppRole, setSuperUser,
} from "@promptly/api";
import { APP_ROLES, normalizeEmail, type AppRole } from "@promptly/shared";
import { BackupError, restoreBackup, writeBackup, type AvatarStore } from "./backup.ts";
import { EVAL_USAGE } from "./eval/command.ts";
import { ConfigError, loadEnv, type Env } from "./env.ts";
import { claimDataDir, embeddedPostgresUrl, startEmbeddedPostgres, startEmbeddedS3, stopLeftoverPostgres, type EmbeddedService } from "./embedded.ts";
import { migrate } from "@promptly/db/migrate";
import pg from "pg";

/** The stored app roles; super user is a flag of its own (grant-super-user). */
const STORED_ROLES = APP_ROLES.filter((role) => role !== "super-user");
const USAGE = [
  "usage: npm run cli -- grant-super-user <email>",
  "       npm run cli -- revoke-super-user <email>",
  `       npm run cli -- set-role <email> ${STORED_ROLES.join("|")}`,
  "       npm run cli -- prompts export --team <team id, slug or name> [--org <organization id, slug or name>] > library.json",
  "       npm run cli -- prompts import --team <team id, slug or name> [--org <organization>] [--dry-run] < library.json",
  "       npm run cli -- backup <file>",
  "       npm run cli -- restore <file> [--force]",
  "       npm run cli -- ingest-retry",
  EVAL_USAGE,
].join("\n");

/** `backup <file>` / `restore <file> [--force]`, or null when the arguments are not that. */
function backupCommand(args: string[]) {
  const [verb, ...rest] = args;
  if (verb !== "backup" && verb !== "restore") return null;
  const force = rest.includes("--force");
  const files = rest.filter((arg) => arg !== "--force");
  if (files.length !== 1 || files[0]!.startsWith("--") || (force && verb === "backup")) return null;
  return { verb, file: files[0]!, force };
}

/** `prompts export|import --team <team> [--org <organization>] [--dry-run]`, or null when the arguments are not that. */
function libraryCommand(args: string[]) {
  const [group, verb, ...rest] = args;
  if (group !== "prompts" || (verb !== "export" && verb !== "import")) return null;
  const valueOf = (option: string) => {
    const at = rest.indexOf(option);
    return at === -1 ? { at } : { at, value: rest[at + 1] };
  };
  const team = valueOf("--team");
  const organization = valueOf("--org");
  const dryRun = rest.includes("--dry-run");
  const known = rest.every((arg, index) => ["--team", "--org", "--dry-run"].includes(arg) || index === team.at + 1 || (organization.at !== -1 && index === organization.at + 1));
  if (!team.value || (organization.at !== -1 && !organization.value) || !known || (dryRun && verb === "export")) return null;
  return { verb, team: team.value, organization: organization.value, dryRun };
}

/** JSON, also when it was saved from `npm run cli` without `-s`: npm's "> promptly cli" lines come first. */
function parseJsonOutput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const start = text.search(/^[[{]/m);
    if (start <= 0) throw error;
    return JSON.parse(text.slice(start));
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function main() {
  const [command, email, role] = process.argv.slice(2);
  const library = libraryCommand(process.argv.slice(2));
  const backup = backupCommand(process.argv.slice(2));
  const known = command === "grant-super-user" || command === "revoke-super-user" || command === "set-role";
  const ingestRetry = command === "ingest-retry" && email === undefined;
  if (!library && !backup && !ingestRetry && (!known || !email || (command === "set-role" && !STORED_ROLES.includes(role as never)))) {
    console.error(USAGE);
    process.exit(2);
  }
  const env = loadEnv();
  if (backup) return runBackupCommand(env, backup);
  let stop = async () => {};
  let url = env.DATABASE_URL;
  if (!url) {
    // The embedded database may already be running under `npm start`: use it rather than start a second one.
    const running = embeddedPostgresUrl(env.EMBEDDED_POSTGRES_PORT);
    const probe = new pg.Client({ connectionString: running, connectionTimeoutMillis: 1000 });
    const reachable = await probe.connect().then(() => true, () => false);
    await probe.end().catch(() => undefined);
    if (reachable) url = running;
    else {
      const embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_POSTGRES_PORT });
      url = embedded.url;
      stop = embedded.service.stop;
    }
  }
  let db: ReturnType<typeof createDb> | undefined;
  try {
    await migrate(url);
    db = createDb({ url, max: 1 });
    if (library) {
      await runLibraryCommand(db, library);
      return;
    }
    if (ingestRetry) {
      const count = await retrySetAsideIngestion(db, new Date());
      console.log(count ? `${count} set-aside request${count === 1 ? "" : "s"} put back: the running servers merge them within seconds.` : "No request is set aside.");
      return;
    }
    const user = await db.user.findUnique({ where: { email: normalizeEmail(email!) }, select: { id: true } });
    if (!user) {
      console.error(`No account with the email ${email}.`);
      process.exitCode = 1;
      return;
    }
    try {
      if (command === "set-role") {
        // As a super user changes it in the app: audited, and the last super user keeps their status.
        await setAppRole(db, { userId: user.id, role: role as AppRole }, { actor: { kind: "cli" }, ip: null, now: new Date() });
        console.log(`${email} now has the app role ${role}.`);
        return;
      }
      const superUser = command === "grant-super-user";
      await setSuperUser(db, user.id, superUser, new Date());
      console.log(`${email} is ${superUser ? "now" : "no longer"} a super user.`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      console.error(error.message);
      process.exitCode = 1;
    }
  } finally {
    await db?.$disconnect();
    await stop();
  }
}

/** Export writes the document to stdout; import reads it from stdin and reports on stderr (stdout stays data). */
async function runLibraryCommand(db: ReturnType<typeof createDb>, library: NonNullable<ReturnType<typeof libraryCommand>>) {
  try {
    const teamId = await findTeamForCommandLine(db, library.team, library.organization);
    if (library.verb === "export") {
      // Written as it is read: the next part once stdout has taken the last, so a library of any size goes through
      // (its snapshot stays open while stdout drains, and is ended if stdout fails).
      await exportLibraryForCli(db, teamId, new Date(), async (text) => {
        if (!process.stdout.write(text)) await once(process.stdout, "drain");
      });
      process.stdout.write("\n");
      return;
    }
    let document: unknown;
    try {
      document = parseJsonOutput(await readStdin());
    } catch {
      console.error("The input is not JSON: pipe a library export or Langfuse prompt JSON into this command.");
      process.exitCode = 1;
      return;
    }
    const plan = await importLibraryForCli(db, teamId, document, library.dryRun, new Date());
    for (const item of plan.items) {
      const details = [...item.problems, ...item.notes].join("; ");
      console.error(`${item.outcome.padEnd(9)} ${item.name}${item.newVersions ? ` (+${item.newVersions} versions)` : ""}${details ? `: ${details}` : ""}`);
    }
    const { create, update, unchanged, conflict, versions } = plan.summary;
    console.error(`${library.dryRun ? "Would import" : "Imported"}: ${create} created, ${update} updated, ${unchanged} unchanged, ${conflict} conflicts, ${versions} versions.`);
    if (conflict) process.exitCode = 1;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}

/**
 * backup / restore. With embedded services their data directory is claimed for the command (refused
 * while `npm start` runs on it: the embedded S3 server's credentials are that process's own, and a
 * restore replaces the database under it); the embedded services are started by the command itself.
 */
async function runBackupCommand(env: Env, command: NonNullable<ReturnType<typeof backupCommand>>) {
  const embeddedDatabase = !env.DATABASE_URL;
  const release = embeddedDatabase || !env.S3_ENDPOINT ? claimDataDir(env.DATA_DIR) : () => {};
  const services: EmbeddedService[] = [];
  let database: { url: string; service: EmbeddedService } | undefined;
  const databaseUrl = async () => {
    if (env.DATABASE_URL) return env.DATABASE_URL;
    if (!database) {
      await stopLeftoverPostgres(env.DATA_DIR);
      const started = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_POSTGRES_PORT });
      database = { url: started.url, service: started.service };
    }
    return database.url;
  };
  const stopDatabase = async () => {
    const running = database;
    database = undefined;
    await running?.service.stop();
  };
  try {
    const s3 = env.S3_ENDPOINT
      ? { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY!, secretKey: env.S3_SECRET_KEY! }
      : await startEmbeddedS3({ dataDir: env.DATA_DIR, port: env.EMBEDDED_S3_PORT }).then((started) => (services.push(started.service), started.config));
    const storage = createS3Storage({ ...s3, region: env.S3_REGION, bucket: env.S3_BUCKET });
    await storage.ensureBucket();
    const avatars: AvatarStore = storage;
    const databaseDir = join(env.DATA_DIR, "postgres");
    // loadEnv keeps a generated secret in DATA_DIR when APP_SECRET is not set.
    const appSecretFile = process.env.APP_SECRET ? undefined : join(env.DATA_DIR, "app-secret");
    if (command.verb === "backup") {
      const url = await databaseUrl();
      const { manifest, tool } = await writeBackup(command.file, {
        databaseUrl: url,
        avatars,
        binDir: env.PG_BIN_DIR,
        embedded: embeddedDatabase ? { databaseDir, stop: stopDatabase } : undefined,
        appSecretFile,
      });
      console.error(`Backed up the database (PostgreSQL ${manifest.database.serverVersion}, ${manifest.database.migrations.length} migrations; ${tool}) and ${manifest.avatars.length} avatars to ${command.file}.`);
      return;
    }
    const { manifest, removedAvatars, notes } = await restoreBackup(command.file, {
      avatars,
      binDir: env.PG_BIN_DIR,
      force: command.force,
      databaseUrl,
      stopDatabase,
      embeddedDatabaseDir: embeddedDatabase ? databaseDir : undefined,
      appSecretFile,
      migrate: async (url) => void (await migrate(url)),
    });
    console.error(
      `Restored the database (backed up ${manifest.createdAt}) and ${manifest.avatars.length} avatars from ${command.file}` +
        `${removedAvatars ? `; removed ${removedAvatars} avatars the backup does not hold` : ""}.`,
    );
    for (const note of notes) console.error(note);
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await stopDatabase().catch(() => undefined);
    for (const service of services.reverse()) await service.stop().catch(() => undefined);
    release();
  }
}

// Some imported module leaves process.exitCode reset by the end; a failure exits explicitly (nothing big is pending on stdout then).
main().then(
  () => {
    if (process.exitCode) process.exit(process.exitCode);
  },
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
