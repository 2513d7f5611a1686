// @ts-check
// Architecture guards, checked by dependency-cruiser (`npm run guards:deps`, part of `npm test`).
//
// Paths in the rules are relative to the repository root. Workspace packages (`@promptly/*`) are
// resolved through their package.json `exports` maps to their real TypeScript sources (the
// node_modules/@promptly/* symlinks are followed), so an import of "@promptly/api" shows up as an
// edge into packages/api/src/index.ts and the path rules below see it.
//
// "Only types" means `import type …` / `export type … from` (dependency type "type-only") or an
// inline `import("…").T` type (dependency type "type-import"): these are erased by TypeScript and
// never reach the bundle. That needs `tsPreCompilationDeps: true` (see options).

/** Test code: unit/integration tests and the Playwright suite. */
const TESTS = ["\\.(test|spec)\\.[cm]?[jt]sx?$", "^apps/web/e2e/"];

/** Type-level dependencies: erased at compile time. */
const TYPE_ONLY = /** @type {import("dependency-cruiser").DependencyType[]} */ (["type-only", "type-import"]);

/** npm packages that only make sense on the server. Matches both resolved (node_modules/…) and unresolved names. */
const SERVER_NPM = "(^|(^|/)node_modules/)(@trpc/server|@prisma/[^/]+|prisma|pg|nodemailer|minio|express)(/|$)";

/**
 * The domains of packages/api/src/services, lowest first. A folder may import only folders before it
 * (types included), so the order reads as the architecture: the platform (outbox, mail, storage, the
 * guarded HTTP client) knows no domain; access (who may do what) knows only the platform; and so on up
 * to reviews, which weigh prompts' changes with evaluations' evidence. A lower domain that must hear of a
 * higher one's work offers a hook (the audit trail's listeners, the outbox's mail renderers) that the
 * higher one registers with (services/hooks.ts loads them all). Files at the services' root (index.ts,
 * hooks.ts, types.ts) wire the folders together and stand outside the order.
 */
const SERVICE_ORDER = [
  "platform", "access", "insight", "identity", "notifications", "webhooks", "organizations",
  "models", "prompts", "runs", "runtime", "production", "evaluations", "reviews",
];

/** One rule per folder: nothing it imports lies above it in SERVICE_ORDER. Tests may set up through any folder. */
const serviceOrderRules = SERVICE_ORDER.slice(0, -1).map((folder, index) => ({
  name: `services-order-${folder}`,
  comment:
    `services/${folder}/ may import only the service folders before it (${SERVICE_ORDER.slice(0, index).join(", ") || "none"}), ` +
    `never ${SERVICE_ORDER.slice(index + 1).join(", ")}. If a lower domain must hear of a higher one, give it a hook to register with ` +
    "(see onAudit in insight/audit.ts, registerMailRenderer in platform/outbox-mail.ts) or move the shared piece down.",
  severity: /** @type {const} */ ("error"),
  from: { path: `^packages/api/src/services/${folder}/`, pathNot: TESTS },
  to: { path: `^packages/api/src/services/(${SERVICE_ORDER.slice(index + 1).join("|")})/` },
}));

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    ...serviceOrderRules,
    {
      name: "services-in-a-known-folder",
      comment:
        "Every service lives in a folder of SERVICE_ORDER (or at the services' root, which wires them): a new " +
        "folder takes its place in the order first.",
      severity: "error",
      from: { path: "^packages/api/src/services/[^/]+/", pathNot: `^packages/api/src/services/(${SERVICE_ORDER.join("|")})/` },
      to: {},
    },
    {
      name: "no-circular",
      comment:
        "Circular imports (including type-only ones) between modules of apps/*/src and packages/*/src. " +
        "Break the cycle: move the shared piece into its own module that both sides import.",
      severity: "error",
      from: { path: "^(apps|packages)/[^/]+/src/" },
      to: { circular: true },
    },
    {
      name: "packages-not-to-apps",
      comment: "Libraries under packages/* never depend on an application under apps/*: dependencies point from apps to packages.",
      severity: "error",
      from: { path: "^packages/" },
      to: { path: "^apps/" },
    },
    {
      name: "web-api-types-only",
      comment:
        "apps/web runs in the browser: from @promptly/api it may import only types (`import type`, e.g. AppRouter), " +
        "never values, which would pull server code into the bundle. Test files (*.test.ts) and the Playwright " +
        "suite (apps/web/e2e) are excluded from this rule.",
      severity: "error",
      from: { path: "^apps/web/", pathNot: TESTS },
      to: { path: "^(packages/api/|@promptly/api(/|$))", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "web-not-to-db",
      comment:
        "apps/web never imports @promptly/db, not even its types: the browser sees data only as the API's " +
        "output types (inferRouterOutputs<AppRouter>). Applies to the Playwright suite and tests too.",
      severity: "error",
      from: { path: "^apps/web/" },
      to: { path: "^(packages/db/|@promptly/db(/|$))" },
    },
    {
      name: "shared-not-to-server",
      comment:
        "packages/shared is used by the browser and the server alike: it imports no server package " +
        "(@promptly/api, @promptly/db, @trpc/server, @prisma/*, pg, nodemailer, minio, express), not even types.",
      severity: "error",
      from: { path: "^packages/shared/" },
      to: { path: ["^(packages/(api|db)/|@promptly/(api|db)(/|$))", SERVER_NPM] },
    },
    {
      name: "client-api-types-only",
      comment:
        "packages/client (the typed client for tooling) takes only types from @promptly/api (AppRouter), " +
        "never runtime code. Test files are excluded from this rule.",
      severity: "error",
      from: { path: "^packages/client/", pathNot: TESTS },
      to: { path: "^(packages/api/|@promptly/api(/|$))", dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "services-not-to-trpc",
      comment:
        "Services (packages/api/src/services) are transport-agnostic: they throw DomainError and never import " +
        "@trpc/server (not even types); the routers translate to TRPCError.",
      severity: "error",
      from: { path: "^packages/api/src/services/" },
      to: { path: "(^|(^|/)node_modules/)@trpc/server(/|$)" },
    },
    {
      name: "production-not-to-harness",
      comment:
        "The test harness (packages/*/testing, apps/server/test) lives outside the production tree and only " +
        "tests import it: a production module that did would ship test code.",
      severity: "error",
      from: { path: "^(apps|packages)/[^/]+/src/", pathNot: TESTS },
      to: { path: "^(packages/[^/]+/testing/|apps/server/test/)" },
    },
    {
      name: "no-deep-import-by-package-name",
      comment:
        "Import a workspace package by its public entry points (its package.json `exports`, e.g. " +
        "@promptly/db/testing), never its internals (@promptly/x/src/...). Such a specifier does not resolve " +
        "through the exports map, which is how it is caught here.",
      severity: "error",
      from: {},
      to: { path: "^@promptly/[^/]+/src(/|$)" },
    },
    {
      name: "no-deep-relative-import",
      comment:
        "A workspace (apps/x or packages/x) never reaches into another workspace's src/ by a relative path " +
        "(../../packages/x/src/...): it imports the package by name (@promptly/x), through its exports.",
      severity: "error",
      from: { path: "^((apps|packages)/[^/]+)/" },
      to: { path: "^(apps|packages)/[^/]+/src/", pathNot: "^$1/", dependencyTypes: ["local"] },
    },
    {
      name: "workspace-imports-resolve",
      comment:
        "Every @promptly/* import must resolve (to a file listed in that package's exports). If it does not, " +
        "the rules above cannot see where it leads: fix the import or the package's exports map.",
      severity: "error",
      from: {},
      to: { path: "^@promptly/", pathNot: "^@promptly/[^/]+/src(/|$)", couldNotResolve: true },
    },
  ],
  options: {
    // node_modules are not cruised (only recorded as the end of an edge); build output and the
    // generated Prisma client are not cruised at all.
    doNotFollow: { path: ["(^|/)node_modules/"] },
    exclude: { path: ["^(apps|packages)/[^/]+/(dist|\\.turbo)/", "^packages/db/src/generated/"] },
    // Keep `import type` edges (dependency type "type-only") so the "types only" rules can tell them apart.
    tsPreCompilationDeps: true,
    // The base compiler options plus apps/web's "@/*" -> apps/web/src/* path alias (the only alias in the
    // repo), rooted at the repository root: dependency-cruiser takes one tsconfig for the whole cruise.
    tsConfig: { fileName: "tsconfig.depcruise.json" },
    // Workspace packages export .ts sources through package.json "exports"; resolve like TypeScript's
    // "Bundler" resolution / Vite / tsx do.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["types", "import", "module", "node", "default", "require"],
      extensions: [".ts", ".tsx", ".mts", ".d.ts", ".js", ".mjs", ".jsx", ".cjs", ".json"],
      mainFields: ["module", "main", "types", "typings"],
    },
    // Follow the node_modules/@promptly/* symlinks to packages/*/src (the default, stated on purpose).
    preserveSymlinks: false,
  },
};
