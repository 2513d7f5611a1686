// Rules of the source that a dependency graph cannot see, checked by `npm run guards` (and shown to
// bite by test/guards.test.ts): which prompts a caller sees by their visibility, and which an API key
// sees (its team's, none archived), is said only in the visibility module, and which role may do what
// is said only in the access module (a role written into SQL by hand drifts from the permission table,
// as the Teams page link of an accepted invitation did), an API key is made a caller only by a
// transport's adapter, and what a refusal answers on each transport is said only in the error table.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface SourceRule {
  name: string;
  /** Where the rule may be written: a file, or a folder ending in '/'. */
  home: string;
  patterns: RegExp[];
  /** Lines that may match elsewhere, each with the reason it may. */
  allowed: { file: string; line: string; reason: string }[];
}

const ROLES = "admin|editor|viewer|member|administrator|team_lead|user|super-user";

export const SOURCE_RULES: SourceRule[] = [
  {
    name: "prompts filtered by visibility outside the visibility module",
    home: "packages/api/src/services/access/visibility.ts",
    patterns: [
      /\bvisibility\b\s*(?:=|<>|!=|(?:NOT\s+)?IN\s*\()\s*'(?:private|team|organization)'/i,
      /\bCASE\s+(?:WHEN\s+)?(?:\w+\.)?visibility\b/i,
      /\bvisibility\s*:\s*\{\s*(?:not|in|notIn|equals)\s*:/,
      // A key's view (its own team's prompts, none archived) restated by hand: a team compared with the key's.
      /\bteam_?id\s*(?:=|<>|!==?|===?)\s*(?:\$\{\s*)?[\w.!]*\b(?:key|apiKey)!?\.teamId\b/i,
      /\b(?:key|apiKey)!?\.teamId\s*(?:!==?|===?)/,
    ],
    allowed: [],
  },
  {
    name: "a role rule written into SQL outside the access module",
    home: "packages/api/src/services/access/",
    patterns: [
      // A role compared with a literal: `om.role = 'admin'`, `tm.role::text IN ('admin', 'editor')`.
      new RegExp(`\\brole\\b(?:::text)?\\s*(?:=|<>|!=|(?:NOT\\s+)?IN\\s*\\()\\s*'(?:${ROLES})'`, "i"),
      // A role compared with the permission table's lists by hand: `tm.role::text IN (${Prisma.join([...teamRoles])})`.
      /\brole\b(?:::text)?\s*(?:NOT\s+)?IN\s*\(\s*\$\{\s*Prisma\.join/i,
    ],
    allowed: [
      {
        file: "packages/api/src/services/organizations/members.ts",
        line: "(m.role = 'admin' AND count(*) FILTER (WHERE m.role = 'admin') OVER () <= 1)",
        reason: "the last admin rule counts an organization's admins; it grants nothing",
      },
    ],
  },
  {
    name: "an API key made a caller outside a transport's adapter",
    home: "packages/api/src/services/access/visibility.ts",
    // Each way in makes the request's key its caller once; services are handed that caller.
    patterns: [/\bkeyCaller\s*\(/],
    allowed: [
      { file: "packages/api/src/context.ts", line: "caller: keyCaller(key.apiKey)", reason: "tRPC's context, once per request" },
      { file: "apps/server/src/routes/v1/router.ts", line: ".caller = keyCaller(result.apiKey);", reason: "the REST, MCP and Langfuse door, once per request" },
      { file: "apps/server/src/fast-paths/fetch-from-memory.ts", line: "const caller = keyCaller(key);", reason: "the runtime fetch before Express, once per request" },
      {
        file: "apps/server/src/warm-up.ts",
        line: "const caller = keyCaller({ id: randomUUID(),",
        reason: "the start's warm-up reads a run's prompt as a key of the prompt's team would, for a key that does not exist, keeping nothing",
      },
      {
        file: "apps/server/src/routes/api-docs/catalog.ts",
        line: "const caller = keyCaller({ id: NO_ID, teamId: NO_ID, labels: null, scopes: [...API_KEY_SCOPES] });",
        reason: "the reference page lists the MCP tools a key with every scope is offered, for a key that does not exist, calling none",
      },
      {
        file: "packages/api/testing/prompts-support.ts",
        line: 'return keyCaller({ id: created.id, teamId, labels: null, scopes: ["ingest"] });',
        reason: "the tests' ingest key, made by the team's admin, handed to the production services as the door would",
      },
    ],
  },
  {
    name: "a refusal thrown without the error table",
    home: "packages/api/src/error-table.ts",
    patterns: [
      // A transport's error made with a code of its own instead of the table's (a refusal is a DomainError,
      // which each transport's one adapter answers through the table); a 500 of our own aside.
      /\bnew\s+TRPCError\s*\(\s*\{\s*code\s*:(?!\s*DOMAIN_ERRORS\[)(?!\s*"INTERNAL_SERVER_ERROR")/,
      /\bnew\s+McpError\s*\((?!\s*JSON_RPC_ERROR\[)/,
      // A second error class for refusals, as REST's HttpError was.
      /\bnew\s+Http\w*Error\s*\(/,
    ],
    allowed: [],
  },
];

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The lines of `source` that break `rule`, as "line number: text" (home and allowed lines aside: the caller filters by file). */
export function ruleMatches(rule: SourceRule, source: string): string[] {
  return source.split("\n").flatMap((line, index) => (rule.patterns.some((pattern) => pattern.test(line)) ? [`${index + 1}: ${line.trim()}`] : []));
}

/** Every TypeScript source file (tests aside) of the apps and packages under `root`, relative to it. */
export function sourceFiles(root = ROOT): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!["node_modules", "dist", "generated"].includes(entry.name)) walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
    }
  };
  for (const top of ["apps", "packages"]) {
    for (const workspace of readdirSync(join(root, top), { withFileTypes: true })) {
      if (workspace.isDirectory()) walk(`${top}/${workspace.name}`);
    }
  }
  return files;
}

const atHome = (rule: SourceRule, file: string) => (rule.home.endsWith("/") ? file.startsWith(rule.home) : file === rule.home);

/** Every break of every rule in the tree under `root`, as "file:line: text (rule)". */
export function sourceRuleViolations(root = ROOT): string[] {
  const files = sourceFiles(root).map((file) => ({ file, source: readFileSync(join(root, file), "utf8") }));
  return SOURCE_RULES.flatMap((rule) =>
    files
      .filter(({ file }) => !atHome(rule, file))
      .flatMap(({ file, source }) =>
        ruleMatches(rule, source)
          .filter((found) => !rule.allowed.some((allowed) => allowed.file === file && found.includes(allowed.line)))
          .map((found) => `${file}:${found} (${rule.name})`),
      ),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? ROOT;
  const violations = sourceRuleViolations(root);
  for (const violation of violations) console.error(violation);
  if (violations.length) {
    console.error(`\n${violations.length} source rule violation(s): say it in the module that owns the rule (scripts/guards/source-rules.ts).`);
    process.exit(1);
  }
  console.log(`source rules: ${SOURCE_RULES.length} rules, no violations`);
}
