// `npm run cli -- backup <file>` writes one archive of the database and the avatars;
// `restore <file>` brings it back on a fresh install (every prompt, version, label and avatar), and
// refuses a target that holds data without --force. Once with everything embedded (a new data
// directory), once with an external PostgreSQL (the machine's, with its own pg_dump) and S3.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { createDb, type Db } from "@promptly/db";
import { migrate } from "@promptly/db/migrate";
import { createEmptyDatabase } from "@promptly/db/testing";
import { createS3Storage } from "@promptly/api";
import { freePort } from "../../../test/free-port.ts";
import { REPO_ROOT } from "./env.ts";
import { startEmbeddedPostgres, startEmbeddedS3 } from "./embedded.ts";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder() {
  const made = mkdtempSync(join(tmpdir(), "promptly-backup-test-"));
  chmodSync(made, 0o755); // the embedded PostgreSQL runs as its own user when the tests run as root
  folders.push(made);
  return made;
}

/** The command line (`npm run cli -- ...args`, run as that script runs it) with only `env` configured. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const configured = { ...process.env, DATABASE_URL: "", S3_ENDPOINT: "", S3_ACCESS_KEY: "", S3_SECRET_KEY: "", S3_BUCKET: "", PG_BIN_DIR: "", APP_SECRET: "", ...env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "apps/server/src/cli.ts"), ...args], { cwd: REPO_ROOT, env: configured, stdio: "pipe" });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

const AVATAR = randomBytes(2048);

/** An installation's worth of data: a person with an avatar, a team, a prompt with two versions and a label. */
async function seed(db: Db, avatars: ReturnType<typeof createS3Storage>) {
  const user = await db.user.create({ data: { email: `ada-${randomBytes(3).toString("hex")}@example.test`, profile: { create: { fullName: "Ada", avatarKey: "avatars/ada.png" } } } });
  await avatars.put("avatars/ada.png", AVATAR, "image/png");
  const organization = await db.organization.create({ data: { name: "Acme", slug: `acme-${randomBytes(3).toString("hex")}` } });
  const team = await db.team.create({ data: { name: "Platform", organizationId: organization.id } });
  const prompt = await db.prompt.create({
    data: {
      organizationId: organization.id, teamId: team.id, name: "ops/summary", title: "Summary", visibility: "team", authorId: user.id, latestVersion: 2,
      versions: { create: [{ version: 1, type: "text", template: "Sum up {{ text }}" }, { version: 2, type: "text", template: "Summarize {{ text }}" }] },
    },
  });
  await db.promptLabel.create({ data: { promptId: prompt.id, name: "production", version: 2 } });
}

/** What a restore must bring back: every prompt, version, label and avatar. */
async function contents(db: Db, avatars: ReturnType<typeof createS3Storage>) {
  const prompts = await db.prompt.findMany({
    select: { name: true, team: { select: { name: true } }, versions: { select: { version: true, template: true }, orderBy: { version: "asc" } }, labels: { select: { name: true, version: true } } },
  });
  const profiles = await db.profile.findMany({ select: { fullName: true, avatarKey: true } });
  const stored = await Promise.all(
    profiles.map(async ({ avatarKey }) => {
      const object = await avatars.get(avatarKey!);
      if (!object) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      return { contentType: object.contentType, bytes: Buffer.concat(chunks).equals(AVATAR) };
    }),
  );
  return { prompts, profiles, stored };
}

const EXPECTED = {
  prompts: [
    {
      name: "ops/summary",
      team: { name: "Platform" },
      versions: [{ version: 1, template: "Sum up {{ text }}" }, { version: 2, template: "Summarize {{ text }}" }],
      labels: [{ name: "production", version: 2 }],
    },
  ],
  profiles: [{ fullName: "Ada", avatarKey: "avatars/ada.png" }],
  stored: [{ contentType: "image/png", bytes: true }],
};

/** Runs `check` against the embedded PostgreSQL and S3 server of `dataDir`, started for it and stopped after. */
async function withEmbedded<T>(dataDir: string, check: (db: Db, avatars: ReturnType<typeof createS3Storage>, url: string) => Promise<T>): Promise<T> {
  const database = await startEmbeddedPostgres({ dataDir, port: await freePort(), durable: false });
  const s3 = await startEmbeddedS3({ dataDir, port: await freePort() });
  const db = createDb({ url: database.url, max: 2 });
  try {
    return await check(db, createS3Storage({ ...s3.config, region: "us-east-1", bucket: "user-avatars" }), database.url);
  } finally {
    await db.$disconnect();
    await s3.service.stop();
    await database.service.stop();
  }
}

it("restores a backup of an embedded installation on a fresh data directory", { timeout: 300_000 }, async () => {
  const [source, fresh, files] = [folder(), folder(), folder()];
  await withEmbedded(source, async (db, avatars, url) => {
    await migrate(url);
    await avatars.ensureBucket();
    await seed(db, avatars);
  });
  const embedded = async (dataDir: string) => ({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(await freePort()), EMBEDDED_S3_PORT: String(await freePort()) });

  const file = join(files, "promptly.backup.tar");
  const backup = await cli(["backup", file], await embedded(source));
  expect(backup.output).toMatch(/Backed up the database \(PostgreSQL \d+\.\d+, \d+ migrations; .+\) and 1 avatars to /);
  expect(backup.code).toBe(0);
  // It holds password hashes and the installation's secret: readable by its owner only.
  expect(statSync(file).mode & 0o777).toBe(0o600);
  // A backup never replaces a file.
  const again = await cli(["backup", file], await embedded(source));
  expect(again.code).toBe(1);
  expect(again.output).toContain("already exists: choose another file name");

  const restore = await cli(["restore", file], await embedded(fresh));
  expect(restore.output).toContain("Restored the database (backed up ");
  expect(restore.code).toBe(0);
  expect(await withEmbedded(fresh, (db, avatars) => contents(db, avatars))).toEqual(EXPECTED);
  // Two-factor keys are encrypted with the installation's secret: it comes along.
  expect(readFileSync(join(fresh, "app-secret"), "utf8")).toBe(readFileSync(join(source, "app-secret"), "utf8"));

  // The restored installation now holds data: a second restore is refused without --force, and changes nothing.
  await withEmbedded(fresh, (db) => db.prompt.updateMany({ data: { title: "Changed after the restore" } }));
  const refused = await cli(["restore", file], await embedded(fresh));
  expect(refused.code).toBe(1);
  expect(refused.output).toMatch(/The target is not empty \(.*prompts: 1.*avatars: 1\)\. A restore replaces everything in it: run it again with --force to overwrite\./);
  expect(await withEmbedded(fresh, (db) => db.prompt.findMany({ select: { title: true } }))).toEqual([{ title: "Changed after the restore" }]);

  const forced = await cli(["restore", file, "--force"], await embedded(fresh));
  expect(forced.code).toBe(0);
  expect(await withEmbedded(fresh, (db, avatars) => contents(db, avatars))).toEqual(EXPECTED);
  expect(await withEmbedded(fresh, (db) => db.prompt.findMany({ select: { title: true } }))).toEqual([{ title: "Summary" }]);
});

it("refuses an archive whose manifest names a file outside it, or whose avatar is a link, and uploads nothing", { timeout: 300_000 }, async () => {
  const target = folder();
  // A file beside the restore's staging folder (DATA_DIR/restore-…): what `../` in a manifest would reach.
  writeFileSync(join(target, "private.txt"), "not for the bucket");
  const archive = async (avatarFile: string, linked: boolean, dataDirectory = true) => {
    const from = folder();
    const manifest = {
      format: "promptly.backup", formatVersion: 1, createdAt: new Date().toISOString(), promptlyVersion: "0.0.0", appSecret: "environment",
      // A data directory: restored into the embedded database with no client tools, avatars first.
      database: { kind: "data-directory", folder: "postgres", serverVersion: "18.1", migrations: [] },
      avatars: [{ key: "avatars/taken.txt", file: avatarFile, contentType: "text/plain", size: 18 }],
    };
    writeFileSync(join(from, "manifest.json"), JSON.stringify(manifest));
    mkdirSync(join(from, "postgres"));
    if (dataDirectory) writeFileSync(join(from, "postgres", "PG_VERSION"), "18\n");
    mkdirSync(join(from, "avatars"));
    if (linked) symlinkSync(join(target, "private.txt"), join(from, "avatars", "0"));
    const file = join(folder(), "crafted.tar");
    await tarCreate(file, from);
    return file;
  };
  const env = async () => ({ DATA_DIR: target, EMBEDDED_POSTGRES_PORT: String(await freePort()), EMBEDDED_S3_PORT: String(await freePort()) });

  const outside = await cli(["restore", await archive("../private.txt", false)], await env());
  expect(outside.output).toContain("is not a Promptly backup (its manifest.json is damaged).");
  expect(outside.code).toBe(1);
  const link = await cli(["restore", await archive("avatars/0", true)], await env());
  expect(link.output).toContain("is incomplete: avatars/0 missing.");
  expect(link.code).toBe(1);
  // An empty folder is no data directory (the embedded database would start on it as a new one).
  const empty = await cli(["restore", await archive("avatars/0", false, false)], await env());
  expect(empty.output).toContain("is incomplete: postgres/PG_VERSION, avatars/0 missing.");
  expect(empty.code).toBe(1);
  expect(await withEmbedded(target, (_db, avatars) => avatars.list(""))).toEqual([]);
});

/** The machine's PostgreSQL (the "external database"): a database made for this test, and its URL. */
const externalDatabase = () => createEmptyDatabase(process.env.TEST_EXTERNAL_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");

it("backs up an external database with pg_dump and restores it with pg_restore into an empty one, in one transaction", { timeout: 300_000 }, async () => {
  const [source, target] = [await externalDatabase(), await externalDatabase()];
  const s3 = inject("s3");
  const bucket = (name: string) => `${name}-${randomBytes(4).toString("hex")}`;
  const [sourceBucket, targetBucket] = [bucket("backup-source"), bucket("backup-target")];
  const storage = (name: string) => createS3Storage({ ...s3, region: "us-east-1", bucket: name });
  const external = (url: string, name: string) => ({
    DATABASE_URL: url, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: name, DATA_DIR: folder(),
  });
  const sourceDb = createDb({ url: source.url, max: 2 });
  const targetDb = createDb({ url: target.url, max: 2 });
  try {
    await migrate(source.url);
    await seed(sourceDb, storage(sourceBucket));
    const file = join(folder(), "external.tar");
    const backup = await cli(["backup", file], external(source.url, sourceBucket));
    expect(backup.output).toMatch(/Backed up the database \(PostgreSQL 15\.\d+, \d+ migrations; pg_dump \(PostgreSQL\) 15\./);
    expect(backup.code).toBe(0);
    const manifest = JSON.parse(await tarMember(file, "manifest.json")) as { database: { kind: string } };
    expect(manifest.database.kind).toBe("pg_dump");

    // The target database is brand new (not even migrated): the restore loads the schema and the data.
    const restore = await cli(["restore", file], external(target.url, targetBucket));
    expect(restore.output).toContain("Restored the database");
    expect(restore.code).toBe(0);
    expect(await contents(targetDb, storage(targetBucket))).toEqual(EXPECTED);

    // A restore that fails half-way through loading (here: the dump's trigram indexes need pg_trgm in
    // the public schema, and the target has it in another schema, which dropping public keeps) changes
    // nothing: the tables it had dropped and loaded are rolled back with it.
    await targetDb.prompt.updateMany({ data: { title: "Kept" } });
    await targetDb.$executeRawUnsafe("CREATE SCHEMA elsewhere");
    await targetDb.$executeRawUnsafe("ALTER EXTENSION pg_trgm SET SCHEMA elsewhere");
    const failed = await cli(["restore", file, "--force"], external(target.url, targetBucket));
    expect(failed.code).toBe(1);
    expect(failed.output).toMatch(/^psql failed: .*gin_trgm_ops.*\nThe restore was rolled back: the database is as it was\.$/m);
    expect(await targetDb.prompt.findMany({ select: { title: true } })).toEqual([{ title: "Kept" }]);

    // A damaged archive is refused before anything is touched.
    const broken = join(folder(), "broken");
    await tarExtract(file, broken);
    writeFileSync(join(broken, "database.dump"), readFileSync(join(broken, "database.dump")).subarray(0, 4000));
    const brokenFile = join(folder(), "broken.tar");
    await tarCreate(brokenFile, broken);
    const damaged = await cli(["restore", brokenFile, "--force"], external(target.url, targetBucket));
    expect(damaged.code).toBe(1);
    expect(damaged.output).toMatch(/^pg_restore failed: /m);
    expect(await targetDb.prompt.findMany({ select: { title: true } })).toEqual([{ title: "Kept" }]);
  } finally {
    await sourceDb.$disconnect();
    await targetDb.$disconnect();
    await source.drop();
    await target.drop();
  }
});

function tarRun(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("tar", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`tar ${args.join(" ")} exited ${code}`))));
  });
}
const tarMember = (file: string, member: string) => tarRun(["-xOf", file, member]);
const tarExtract = async (file: string, into: string) => {
  mkdirSync(into, { recursive: true });
  await tarRun(["-xf", file, "-C", into]);
};
const tarCreate = (file: string, from: string) => tarRun(["-cf", file, "-C", from, "."]);
