// Proves that the dependency-cruiser rules in .dependency-cruiser.cjs bite: a throw-away workspace tree
// (in the OS temp directory) breaks each rule once, is cruised with the repository's own configuration,
// and every broken rule must be reported - while the allowed variants (type-only imports, test files)
// must not be. The real tree is checked by `npm run guards`, not here.
// Also the rules of the source that `npm run guards` checks beside the graph (scripts/guards/source-rules.ts):
// the one visibility rule and the one role rule, shown here to catch what is planted. The services'
// folder order (SERVICE_ORDER in .dependency-cruiser.cjs) is planted against both ways: a lower folder
// importing a higher one, and a folder outside the order.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { SOURCE_RULES, ruleMatches, sourceFiles, sourceRuleViolations, type SourceRule } from "../scripts/guards/source-rules.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Files of the fixture tree, relative to its root. */
const FIXTURE: Record<string, string> = {
  // Workspace packages, resolved like the real ones: node_modules/@promptly/* symlinks + "exports" maps.
  "packages/db/package.json": JSON.stringify({ name: "@promptly/db", exports: { ".": "./src/index.ts" } }),
  "packages/db/src/index.ts": "export type Db = { url: string };\nexport const createDb = (url: string): Db => ({ url });\n",
  "packages/api/package.json": JSON.stringify({ name: "@promptly/api", exports: { ".": "./src/index.ts" } }),
  "packages/api/src/index.ts": 'export type AppRouter = { health: () => "ok" };\nexport const appRouter = { health: () => "ok" as const };\n',
  "packages/api/src/internal.ts": "export const internal = 1;\n",
  // (service → @trpc/server, resolved to node_modules like the real one)
  "packages/api/src/services/bad-service.ts": 'import { TRPCError } from "@trpc/server";\nexport const fail = () => new TRPCError();\n',
  "node_modules/@trpc/server/package.json": JSON.stringify({ name: "@trpc/server", exports: { ".": { types: "./index.d.ts", default: "./index.js" } } }),
  "node_modules/@trpc/server/index.d.ts": "export declare class TRPCError {}\n",
  "node_modules/@trpc/server/index.js": "export class TRPCError {}\n",
  "packages/shared/package.json": JSON.stringify({ name: "@promptly/shared", exports: { ".": "./src/index.ts" } }),
  // (a) a two-file import cycle
  "packages/shared/src/cycle-a.ts": 'import { b } from "./cycle-b.ts";\nexport const a = () => b;\n',
  "packages/shared/src/cycle-b.ts": 'import { a } from "./cycle-a.ts";\nexport const b = () => a;\n',
  // (b) forbidden imports
  "packages/shared/src/uses-db.ts": 'import { createDb } from "@promptly/db";\nexport const db = createDb("x");\n',
  "packages/shared/src/uses-db-types.ts": 'import type { Db } from "@promptly/db";\nexport type SharedDb = Db;\n',
  "packages/shared/src/uses-mailer.ts": 'import nodemailer from "nodemailer";\nexport const m = nodemailer;\n',
  "packages/shared/src/uses-app.ts": 'import { page } from "../../../apps/web/src/page.ts";\nexport const p = page;\n',
  "packages/client/src/index.ts": 'import { appRouter } from "@promptly/api";\nexport const r = appRouter;\n',
  "packages/client/src/types.ts": 'import type { AppRouter } from "@promptly/api";\nexport type R = AppRouter;\n',
  "apps/web/src/page.ts": "export const page = 1;\n",
  "apps/web/src/allowed.ts": 'import type { AppRouter } from "@promptly/api";\nexport type Router = AppRouter;\n',
  "apps/web/src/allowed-inline.ts": 'import { type AppRouter } from "@promptly/api";\nexport type Router = AppRouter;\n',
  "apps/web/src/value-from-api.ts": 'import { appRouter } from "@promptly/api";\nexport const r = appRouter;\n',
  "apps/web/src/types-from-db.ts": 'import type { Db } from "@promptly/db";\nexport type WebDb = Db;\n',
  "apps/server/src/deep-by-name.ts": 'import { internal } from "@promptly/api/src/internal.ts";\nexport const i = internal;\n',
  "apps/server/src/deep-relative.ts": 'import { internal } from "../../../packages/api/src/internal.ts";\nexport const i = internal;\n',
  "apps/server/src/not-exported.ts": 'import { internal } from "@promptly/api/internal";\nexport const i = internal;\n',
  "apps/web/src/page.test.ts": 'import { appRouter } from "@promptly/api";\nexport const r = appRouter;\n',
  // (c) the services' folder order: platform below identity; a test may set up through any folder
  "packages/api/src/services/platform/mailer.ts": "export const mailer = 1;\n",
  "packages/api/src/services/identity/account.ts": 'import { mailer } from "../platform/mailer.ts";\nexport const account = mailer;\n',
  "packages/api/src/services/platform/up.ts": 'import { account } from "../identity/account.ts";\nexport const up = account;\n',
  "packages/api/src/services/platform/up-types.ts": 'import type { account } from "../identity/account.ts";\nexport type Up = typeof account;\n',
  "packages/api/src/services/platform/up.test.ts": 'import { account } from "../identity/account.ts";\nexport const up = account;\n',
  "packages/api/src/services/misc/thing.ts": 'import { mailer } from "../platform/mailer.ts";\nexport const thing = mailer;\n',
  // (d) the test harness, imported by production code (refused) and by a test (allowed)
  "packages/api/testing/harness.ts": "export const harness = 1;\n",
  "packages/api/src/uses-harness.ts": 'import { harness } from "../testing/harness.ts";\nexport const h = harness;\n',
  "packages/api/src/uses-harness.test.ts": 'import { harness } from "../testing/harness.ts";\nexport const h = harness;\n',
};

let root: string;
let violations: IViolation[];

/** "rule: from → to" for every reported violation (cycles are reported from one of their members). */
const reported = () => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "promptly-guards-")));
  for (const [file, content] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
  mkdirSync(join(root, "node_modules/@promptly"), { recursive: true });
  for (const name of ["api", "db", "shared"]) symlinkSync(join(root, "packages", name), join(root, "node_modules/@promptly", name), "dir");

  // The repository's own configuration, as `depcruise --config .dependency-cruiser.cjs` reads it; only the
  // base directory changes (the rules' paths are relative to it).
  const options = await extractDepcruiseOptions(join(ROOT, ".dependency-cruiser.cjs"));
  const tsConfigFile = join(ROOT, options.tsConfig?.fileName ?? "tsconfig.depcruise.json");
  const result = await cruise(
    ["apps", "packages"],
    { ...options, baseDir: root, tsConfig: { fileName: tsConfigFile } },
    { bustTheCache: true },
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  violations = (result.output as ICruiseResult).summary.violations;
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("dependency-cruiser configuration", () => {
  it("resolves @promptly/* through the exports maps and symlinks to the packages' sources", () => {
    expect(reported()).toContain("shared-not-to-server: packages/shared/src/uses-db.ts → packages/db/src/index.ts");
  });

  it("reports a two-file import cycle", () => {
    const cycles = violations.filter((v) => v.rule.name === "no-circular");
    expect(cycles.length).toBeGreaterThan(0);
    for (const cycle of cycles) {
      expect([cycle.from, cycle.to].sort()).toEqual(["packages/shared/src/cycle-a.ts", "packages/shared/src/cycle-b.ts"]);
    }
  });

  it("reports every forbidden import, each by its rule, and nothing else", () => {
    expect(reported().filter((line) => !line.startsWith("no-circular:"))).toEqual(
      [
        "shared-not-to-server: packages/shared/src/uses-db.ts → packages/db/src/index.ts",
        "shared-not-to-server: packages/shared/src/uses-db-types.ts → packages/db/src/index.ts",
        "shared-not-to-server: packages/shared/src/uses-mailer.ts → nodemailer",
        "packages-not-to-apps: packages/shared/src/uses-app.ts → apps/web/src/page.ts",
        "no-deep-relative-import: packages/shared/src/uses-app.ts → apps/web/src/page.ts",
        "client-api-types-only: packages/client/src/index.ts → packages/api/src/index.ts",
        "services-not-to-trpc: packages/api/src/services/bad-service.ts → node_modules/@trpc/server/index.d.ts",
        "web-api-types-only: apps/web/src/value-from-api.ts → packages/api/src/index.ts",
        "web-not-to-db: apps/web/src/types-from-db.ts → packages/db/src/index.ts",
        "no-deep-import-by-package-name: apps/server/src/deep-by-name.ts → @promptly/api/src/internal.ts",
        "no-deep-relative-import: apps/server/src/deep-relative.ts → packages/api/src/internal.ts",
        "workspace-imports-resolve: apps/server/src/not-exported.ts → @promptly/api/internal",
        "production-not-to-harness: packages/api/src/uses-harness.ts → packages/api/testing/harness.ts",
        "services-order-platform: packages/api/src/services/platform/up.ts → packages/api/src/services/identity/account.ts",
        "services-order-platform: packages/api/src/services/platform/up-types.ts → packages/api/src/services/identity/account.ts",
        "services-in-a-known-folder: packages/api/src/services/misc/thing.ts → packages/api/src/services/platform/mailer.ts",
      ].sort(),
    );
  });

  it("allows type-only imports from @promptly/api, and exempts test files from the types-only rules", () => {
    const sources = violations.map((v) => v.from);
    expect(sources).not.toContain("apps/web/src/allowed.ts");
    expect(sources).not.toContain("apps/web/src/allowed-inline.ts");
    expect(sources).not.toContain("packages/client/src/types.ts");
    expect(sources).not.toContain("apps/web/src/page.test.ts");
  });
});

// ---- the rules of the source (scripts/guards/source-rules.ts, run by `npm run guards`) ----

const [VISIBILITY_RULE, ROLE_RULE, KEY_CALLER_RULE, REFUSAL_RULE] = SOURCE_RULES as [SourceRule, SourceRule, SourceRule, SourceRule];

describe("the rules of the source", () => {
  it("the real tree keeps them, and the scan reads it (each rule's home matches)", () => {
    expect(sourceRuleViolations()).toEqual([]);
    expect(sourceFiles()).toContain(VISIBILITY_RULE.home);
    expect(ruleMatches(VISIBILITY_RULE, readFileSync(join(ROOT, VISIBILITY_RULE.home), "utf8")).length).toBeGreaterThan(0);
  });

  it("`npm run guards` fails on a planted role rule in SQL outside the access module, and names it", () => {
    const planted = mkdtempSync(join(realpathSync(tmpdir()), "promptly-rules-"));
    try {
      const file = "packages/api/src/services/reviews/planted.ts";
      mkdirSync(join(planted, dirname(file)), { recursive: true });
      mkdirSync(join(planted, "apps"), { recursive: true });
      writeFileSync(join(planted, file), "export const q = Prisma.sql`SELECT 1 FROM team_members tm WHERE tm.role = 'admin'`;\n");
      const run = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/guards/source-rules.ts"), planted], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`${file}:1: export const q`);
      expect(run.stderr).toContain(ROLE_RULE.name);
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });

  it.each([
    "WHERE p.team_id = $1 AND p.visibility <> 'private'",
    "AND visibility = 'private'",
    "  AND p.visibility != 'team'",
    "WHERE p.visibility IN ('team', 'organization')",
    "AND p.visibility NOT IN ('private')",
    "(CASE p.visibility WHEN 'private' THEN FALSE ELSE TRUE END)",
    "CASE WHEN p.visibility = 'private' THEN 0 ELSE 1 END",
    'where: { teamId, visibility: { not: "private" } },',
    'where: { visibility: { in: ["team", "organization"] } }',
    // A key's view of prompts (its team's, not archived) restated by hand beside promptVisibility.
    "WHERE p.team_id = ${caller.apiKey.teamId}::uuid AND p.name = ${name}",
    "const where = [Prisma.sql`p.team_id = ${key.teamId}::uuid`, visible];",
    "if (!row || (caller.apiKey && (row.teamId !== caller.apiKey.teamId || row.archived))) return null;",
    "if (caller.apiKey!.teamId === prompt.teamId) return prompt;",
  ])("catches a planted visibility filter: %s", (line) => {
    expect(ruleMatches(VISIBILITY_RULE, `const a = 1;\n${line}\n`)).toEqual([`2: ${line.trim()}`]);
  });

  it.each([
    "SELECT p.visibility::text AS visibility FROM prompts p",
    "if (prompt.facts.visibility === \"private\") return false;",
    "data: { visibility: input.visibility, title }",
    "where.push(Prisma.sql`p.visibility = ${input.visibility}::prompt_visibility`);",
    "visibility: \"team\",",
    "const team = await loadTeamAccess(db, caller, caller.apiKey.teamId);",
    "{ ...input, teamId: caller.apiKey.teamId }",
    "services.runtime.invalidate(`team:${caller.apiKey.teamId}`)",
  ])("leaves what is not a visibility filter: %s", (line) => {
    expect(ruleMatches(VISIBILITY_RULE, line)).toEqual([]);
  });

  it("`npm run guards` fails on a planted refusal thrown without the error table, and names it", () => {
    const planted = mkdtempSync(join(realpathSync(tmpdir()), "promptly-rules-"));
    try {
      const file = "apps/server/src/routes/v1/planted.ts";
      mkdirSync(join(planted, dirname(file)), { recursive: true });
      mkdirSync(join(planted, "packages"), { recursive: true });
      writeFileSync(join(planted, file), 'export const refuse = () => {\n  throw new TRPCError({ code: "FORBIDDEN", message: "No" });\n};\n');
      const run = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/guards/source-rules.ts"), planted], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`${file}:2: throw new TRPCError`);
      expect(run.stderr).toContain(REFUSAL_RULE.name);
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });

  it.each([
    "const { joins, visible } = promptVisibility(keyCaller(key));",
    "  allowOrFail(authorize(keyCaller(apiKey), \"prompt.read\", { fetch: selector }));",
  ])("catches a key made a caller outside the adapters: %s", (line) => {
    expect(ruleMatches(KEY_CALLER_RULE, `const a = 1;\n${line}\n`)).toEqual([`2: ${line.trim()}`]);
  });

  it.each([
    "const { joins, visible } = promptVisibility(caller);",
    "export function keyCallerOf(res: Response) {",
  ])("leaves what does not make a key a caller: %s", (line) => {
    expect(ruleMatches(KEY_CALLER_RULE, line)).toEqual([]);
  });

  it.each([
    'throw new TRPCError({ code: "NOT_FOUND", message: MSG.notFound });',
    "const personOnly = () => new TRPCError({ code: 'FORBIDDEN', message: API_KEY_MSG.personOnly });",
    "if (!decision.ok) throw new TRPCError({ code: decision.code, message: decision.message });",
    "return new McpError(ErrorCode.InvalidParams, body.message, { error: body });",
    'throw new HttpError("BAD_REQUEST", LANGFUSE_MSG.versionAndLabel);',
  ])("catches a planted refusal without the error table: %s", (line) => {
    expect(ruleMatches(REFUSAL_RULE, `const a = 1;\n${line}\n`)).toEqual([`2: ${line.trim()}`]);
  });

  it.each([
    "throw new TRPCError({ code: DOMAIN_ERRORS[cause.code].code, message: cause.message, cause });",
    'throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: new TestFault(`Test fault requested for ${path}`) });',
    "return new McpError(JSON_RPC_ERROR[body.code], body.message, { error: body });",
    'throw new DomainError("INVALID", LANGFUSE_MSG.versionAndLabel);',
  ])("leaves a refusal through the error table: %s", (line) => {
    expect(ruleMatches(REFUSAL_RULE, line)).toEqual([]);
  });

  it.each([
    "SELECT (COALESCE(om.role = 'admin', FALSE) OR COALESCE(ur.role = 'administrator', FALSE)) AS \"teamsPage\"",
    "WHERE tm.role::text IN ('admin', 'editor')",
    "AND m.role <> 'viewer'",
    "AND tm.role::text IN (${Prisma.join([...teamRoles])})",
  ])("catches a planted role rule in SQL: %s", (line) => {
    expect(ruleMatches(ROLE_RULE, `const a = 1;\n${line}\n`)).toEqual([`2: ${line.trim()}`]);
  });

  it.each([
    "SELECT tm.role::text AS \"teamRole\" FROM team_members tm",
    "data: { role: input.role }",
    "if (access.teamRole === \"admin\") return true;",
    "UPDATE team_members SET role = ${role}::team_role WHERE id = ${id}::uuid",
  ])("leaves what is not a role rule: %s", (line) => {
    expect(ruleMatches(ROLE_RULE, line)).toEqual([]);
  });
});
