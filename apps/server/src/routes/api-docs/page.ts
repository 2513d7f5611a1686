// The reference page of every HTTP API Promptly serves, as plain server-rendered HTML: no script, no
// web font, nothing from another origin. Headings, landmarks, tables with headers and text that wraps
// (no region scrolls sideways) keep it readable by keyboard and screen reader and at any width.
import type { Catalog, JsonSchema, McpToolEntry } from "./catalog.ts";

/** What each route of /api/public does, by "METHOD path" as the route table names it (a test holds the two together). */
export const LANGFUSE_ROUTE_NOTES: Record<string, string> = {
  "GET /projects": "The key's team as the one project it sees, in its organization: the Python SDK's auth_check().",
  "GET /v2/prompts":
    "Lists the prompts: name, label, tag, version, page, limit (10, at most 100), fromUpdatedAt, toUpdatedAt. Answers data, meta and the legacy pagination.",
  "POST /v2/prompts": "Creates a prompt, or the next version of the prompt of that name (text or chat), with its labels, config, tags and commit message. Answers 201 with the version.",
  "GET /v2/prompts/{name}":
    "Fetches one version: version or label (production when neither; both is 400), resolve=false for its includes as written. A split label's unit in the X-Promptly-Unit header.",
  "DELETE /v2/prompts/{name}": "Deletes the whole prompt, ?version= that version, or ?label= the version the label points to (204). Needs the delete scope.",
  "PATCH /v2/prompts/{name}/versions/{version}": "Points newLabels at the version (never production). Answers the version.",
  "POST /otel/v1/traces":
    "OpenTelemetry traces (OTLP/HTTP, JSON or protobuf, gzip taken): spans that name a prompt become production generations of its version. Answers 200 {}.",
  "POST /ingestion":
    "The langfuse v3 SDK's batches: generation-create, generation-update, score-create, and trace-create for its user, session and environment. Answers 207 with each event's id.",
  "POST /scores": "A Langfuse score (numeric, boolean or categorical) on a trace or an observation. Answers 200 { id }.",
};

const LANGFUSE_DIFFERENCES = [
  "A key never moves production, in a create's labels or an update's newLabels (403, nothing saved): a team admin moves it in the app, with a review where the team requires one.",
  "latest is always the newest version and cannot be set on a version (400).",
  "A key sees only its team: each team is one Langfuse project; another team's prompt, a private or an archived one, is 404 and not listed.",
  "Deleting needs the delete scope, never removes the version production points to (403) nor one another prompt includes (400), and is audited.",
  "Names keep Promptly's rule (lowercase letters, digits, -, _, ., / between folders): another name is 400 naming the nearest one Promptly accepts.",
  "Chat messages have the roles system, user and assistant, and may hold placeholders ({ type: \"placeholder\", name }).",
  "Tools and structured output travel in config as OpenAI names them (tools, response_format) and become the version's own.",
  "Tags are the prompt's: a new version's tags replace them, none keeps them, [] clears them.",
  "Only the v2 prompt routes are served: the legacy GET /api/public/prompts is 404, as are Langfuse's traces, sessions, datasets and other read APIs.",
  "Errors are Langfuse's { message, error }, error naming Langfuse's error class (LangfuseNotFoundError for a 404).",
];

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

/** An id for a fragment link from a path and method. */
const slug = (...parts: string[]) =>
  parts
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** A JSON Schema's type in words: `string`, `array of string`, `number or string`, a named schema's link. */
function typeText(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop()!;
    return `<a href="#schema-${escape(slug(name))}">${escape(name)}</a>`;
  }
  if (schema.enum) return `one of ${schema.enum.map((value) => `<code>${escape(JSON.stringify(value))}</code>`).join(", ")}`;
  if (schema.const !== undefined) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return [...new Set(union.map(typeText))].join(" or ");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type;
  if (type === "array") return `array of ${typeText(schema.items)}`;
  return escape(type ?? "any");
}

const METHOD_CLASS: Record<string, string> = { GET: "get", POST: "post", PUT: "put", PATCH: "put", DELETE: "delete" };
const method = (name: string) => `<span class="method ${METHOD_CLASS[name] ?? "get"}">${escape(name)}</span>`;

function table(caption: string, head: string[], rows: string[][]): string {
  if (!rows.length) return "";
  return `<div class="table"><table>
<caption>${caption}</caption>
<thead><tr>${head.map((cell) => `<th scope="col">${cell}</th>`).join("")}</tr></thead>
<tbody>${rows.map(([first, ...rest]) => `<tr><th scope="row">${first}</th>${rest.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("\n")}</tbody>
</table></div>`;
}

const code = (text: string) => `<pre><code>${escape(text)}</code></pre>`;

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: JsonSchema;
}
interface OperationDoc {
  summary: string;
  operationId: string;
  "x-scope": string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; headers?: Record<string, { description: string }>; content?: Record<string, { schema: JsonSchema }> }>;
}

function v1Operation(path: string, verb: string, operation: OperationDoc): string {
  const id = slug("v1", operation.operationId);
  const parameters = table(
    "Parameters",
    ["Name", "In", "Type", "Required", "Description"],
    operation.parameters.map((parameter) => [
      `<code>${escape(parameter.name)}</code>`,
      escape(parameter.in),
      typeText(parameter.schema),
      parameter.required ? "yes" : "no",
      escape(parameter.description ?? parameter.schema.description ?? ""),
    ]),
  );
  const body = operation.requestBody?.content["application/json"];
  const responses = table(
    "Responses",
    ["Status", "Description", "Body"],
    Object.entries(operation.responses).map(([status, answer]) => [
      escape(status),
      escape(answer.description) +
        (answer.headers ? ` Headers: ${Object.entries(answer.headers).map(([name, header]) => `<code>${escape(name)}</code> (${escape(header.description)})`).join(", ")}.` : ""),
      Object.entries(answer.content ?? {})
        .map(([type, content]) => `<code>${escape(type)}</code>: ${typeText(content.schema)}${content.schema.description ? ` (${escape(content.schema.description)})` : ""}`)
        .join("<br>"),
    ]),
  );
  return `<section class="operation" aria-labelledby="${id}">
<h3 id="${id}">${method(verb.toUpperCase())} <code>/api/v1${escape(path)}</code></h3>
<p>${escape(operation.summary)}</p>
<p>Operation <code>${escape(operation.operationId)}</code> · key scope <strong>${escape(operation["x-scope"])}</strong></p>
${parameters}
${body ? `<p>Request body (<code>application/json</code>): ${typeText(body.schema)}</p>` : ""}
${responses}
</section>`;
}

function v1Section(catalog: Catalog, base: string): string {
  const document = catalog.openApi;
  const operations = Object.entries(document.paths).flatMap(([path, verbs]) =>
    Object.entries(verbs).map(([verb, operation]) => v1Operation(path, verb, operation as OperationDoc)),
  );
  const schemas = Object.entries(document.components.schemas).map(
    ([name, schema]) => `<section class="schema" aria-labelledby="schema-${escape(slug(name))}">
<h4 id="schema-${escape(slug(name))}">${escape(name)}</h4>
<details><summary>JSON Schema of ${escape(name)}</summary>${code(JSON.stringify(schema, null, 2))}</details>
</section>`,
  );
  return `<section aria-labelledby="v1">
<h2 id="v1">Runtime API: <code>/api/v1</code></h2>
<p>${escape(document.info.description)}</p>
<p>Authenticate with a team API key (a team admin creates it on the Teams page): <code>Authorization: Bearer promptly_…</code>.
The OpenAPI 3.1 document, generated from the schemas the server validates with, is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
${code(`curl -H "Authorization: Bearer $PROMPTLY_API_KEY" "${base}/api/v1/prompts/support/reply?label=production"`)}
<p>Errors are <code>{ "error": { "code", "message", "details"? } }</code>: 400 (every problem in details), 401 (the key), 403 (scope or label), 404, 409, 429 with <code>Retry-After</code>.</p>
${operations.join("\n")}
<section aria-labelledby="v1-schemas">
<h3 id="v1-schemas">Schemas</h3>
${schemas.join("\n")}
</section>
</section>`;
}

function langfuseSection(catalog: Catalog, base: string): string {
  const rows = catalog.langfuse.map((route) => [
    `${method(route.method)} <code>/api/public${escape(route.path)}</code>`,
    `<strong>${escape(route.scope)}</strong>`,
    escape(LANGFUSE_ROUTE_NOTES[`${route.method} ${route.path}`] ?? ""),
  ]);
  return `<section aria-labelledby="public">
<h2 id="public">Langfuse-compatible API: <code>/api/public</code></h2>
<p>Code that uses Langfuse's SDKs (JavaScript <code>langfuse</code> v3 and <code>@langfuse/client</code> v5, Python <code>langfuse</code>) and OpenTelemetry exporters works against Promptly by changing the base URL and the key pair:
the secret key is a Promptly team API key, the public key its public half (<code>pk-lf-…</code>, shown in the team's key list). They are sent as HTTP Basic <code>publicKey:secretKey</code>; <code>Authorization: Bearer promptly_…</code> is taken too.
Prompts need the read scope (write to create and move labels, delete to delete), traces and scores the ingest scope.</p>
${code(`LANGFUSE_BASE_URL=${base}
LANGFUSE_PUBLIC_KEY=pk-lf-…
LANGFUSE_SECRET_KEY=promptly_…`)}
${table("Routes of /api/public", ["Route", "Key scope", "What it does"], rows)}
<h3 id="public-differences">What differs from Langfuse</h3>
<ul>${LANGFUSE_DIFFERENCES.map((item) => `<li>${escape(item)}</li>`).join("\n")}</ul>
</section>`;
}

function mcpTool(tool: McpToolEntry): string {
  const id = slug("mcp", tool.name);
  const required = new Set(tool.inputSchema.required ?? []);
  const rows = Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => [
    `<code>${escape(name)}</code>`,
    typeText(schema),
    required.has(name) ? "yes" : "no",
    escape(schema.description ?? ""),
  ]);
  return `<section class="operation" aria-labelledby="${id}">
<h4 id="${id}"><code>${escape(tool.name)}</code></h4>
<p>${tool.writes ? "Offered to a key with the <strong>write</strong> scope only." : "Reads: offered to every key."}</p>
<p class="text">${escape(tool.description)}</p>
${table(`Arguments of ${escape(tool.name)}`, ["Argument", "Type", "Required", "Description"], rows)}
</section>`;
}

function mcpSection(catalog: Catalog, base: string): string {
  const config = JSON.stringify({ mcpServers: { promptly: { type: "http", url: `${base}/api/mcp`, headers: { Authorization: "Bearer promptly_…" } } } }, null, 2);
  return `<section aria-labelledby="mcp">
<h2 id="mcp">MCP for agents: <code>/api/mcp</code></h2>
<p>The Model Context Protocol over Streamable HTTP (stateless, answered as JSON): <code>POST ${escape(base)}/api/mcp</code> with a team API key as <code>Authorization: Bearer promptly_…</code>, the same key, rate limit and rules as <code>/api/v1</code>.
${catalog.mcp.instructions ? escape(catalog.mcp.instructions) : ""}</p>
<p>For a client that speaks Streamable HTTP with headers (Claude Code, Cursor, VS Code):</p>
${code(config)}
<p>For a client that only starts local (stdio) servers, through a bridge:</p>
${code(JSON.stringify({ mcpServers: { promptly: { command: "npx", args: ["mcp-remote", `${base}/api/mcp`, "--header", "Authorization:${PROMPTLY_AUTH}"], env: { PROMPTLY_AUTH: "Bearer promptly_…" } } } }, null, 2))}
<h3 id="mcp-tools">Tools</h3>
<p>A refusal is a tool error (<code>isError</code>) with the runtime API's message, its error body as the structured content.</p>
${catalog.mcp.tools.map(mcpTool).join("\n")}
<h3 id="mcp-prompts">Prompts</h3>
<p>The key's prompts that have a <code>production</code> version are MCP prompts: <code>prompts/list</code> names them (50 a page, with a cursor), each argument a variable of the production version (required unless optional or defaulted);
<code>prompts/get</code> compiles the production version with the arguments and answers its messages (a text prompt is one user message; a chat prompt's system message is sent as a user message, and a placeholder adds none).</p>
</section>`;
}

function otherSection(): string {
  return `<section aria-labelledby="other">
<h2 id="other">Other endpoints</h2>
<ul>
<li><code>GET /api/health</code>, <code>/api/health/live</code>, <code>/api/health/ready</code>: whether the server, its database, storage and mail are up (no key).</li>
<li><code>/trpc</code>: the app's own API, which the web app uses. Typed by the server's <code>AppRouter</code>; the <code>createClient</code> of <code>@promptly/client</code> calls it with a session or a team API key. It follows the app's releases, not a versioned contract.</li>
</ul>
</section>`;
}

const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; background: #fff; overflow-wrap: anywhere; }
a { color: #1d4ed8; text-decoration: underline; text-underline-offset: 2px; }
a:focus-visible, summary:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: #fff; padding: 8px 12px; }
.skip:focus { left: 8px; top: 8px; z-index: 1; }
header, main, nav { max-width: 72rem; margin: 0 auto; padding: 0 16px; }
header { padding-top: 24px; }
h1 { font-size: 1.75rem; margin: 0 0 8px; }
h2 { font-size: 1.4rem; margin: 40px 0 12px; padding-top: 16px; border-top: 1px solid #d1d5db; }
h3 { font-size: 1.1rem; margin: 28px 0 8px; }
h4 { font-size: 1rem; margin: 20px 0 6px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: #f3f4f6; border: 1px solid #d1d5db; border-radius: 6px; padding: 12px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0 16px; }
.method { display: inline-block; min-width: 4.2em; text-align: center; border-radius: 4px; padding: 0 6px; font-size: 0.8em; font-weight: 700; color: #fff; font-family: ui-monospace, monospace; }
.method.get { background: #1d4ed8; } .method.post { background: #15803d; } .method.put { background: #6d28d9; } .method.delete { background: #b91c1c; }
.table { width: 100%; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 0.95rem; table-layout: fixed; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border: 1px solid #d1d5db; padding: 6px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
thead th { background: #f3f4f6; }
tbody th { font-weight: 400; }
.text { white-space: pre-line; }
nav ul { padding-left: 1.2em; }
nav ul.operations { columns: 3 14rem; }
details { margin: 4px 0 12px; }
summary { cursor: pointer; color: #1d4ed8; }
.operation { border-left: 3px solid #d1d5db; padding-left: 12px; margin: 16px 0; }
@media (max-width: 640px) { table { font-size: 0.85rem; } th, td { padding: 4px; } }
`;

/** The whole page; `base` is this server's public address, for the examples. */
export function apiDocsPage(catalog: Catalog, base: string): string {
  const v1 = Object.values(catalog.openApi.paths).flatMap((verbs) => Object.values(verbs) as OperationDoc[]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Promptly API reference</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the reference</a>
<header>
<h1>Promptly API reference</h1>
<p>Every HTTP API this Promptly server serves at <code>${escape(base)}</code>: the runtime API, the Langfuse-compatible API and MCP. All three take a team API key and share its rate limit and rules.</p>
</header>
<nav aria-label="Contents">
<h2 id="contents">Contents</h2>
<ul>
<li><a href="#v1">Runtime API: /api/v1</a> (${v1.length} operations)<ul class="operations">${v1
    .map((operation) => `<li><a href="#${slug("v1", operation.operationId)}">${escape(operation.operationId)}</a></li>`)
    .join("")}</ul></li>
<li><a href="#v1-schemas">Runtime API schemas</a></li>
<li><a href="#public">Langfuse-compatible API: /api/public</a> (${catalog.langfuse.length} routes)</li>
<li><a href="#public-differences">What differs from Langfuse</a></li>
<li><a href="#mcp">MCP: /api/mcp</a> (${catalog.mcp.tools.length} tools)</li>
<li><a href="#other">Other endpoints</a></li>
</ul>
</nav>
<main id="main">
${v1Section(catalog, base)}
${langfuseSection(catalog, base)}
${mcpSection(catalog, base)}
${otherSection()}
</main>
</body>
</html>
`;
}
