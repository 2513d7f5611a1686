// What an MCP client of one API key is offered: the runtime API's prompt tools and the key's readable
// prompts as MCP prompts. Every call goes through the one door as REST's does: the action's decision
// (authorize, the permission table) first, then the runtime services of packages/api, which hold the
// rules (the key's team, its labels and scopes, `production` never moved by a key) and ask the
// decision again. Inputs are checked with REST's shared schemas (parseOr400), so a refusal carries the
// message REST gives for it; a tool's refusal is a tool error (`isError`) whose structured content is
// REST's error body, its code from the one error table.
import type { Request } from "express";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type CallToolResult, type GetPromptResult, type Prompt, type PromptMessage,
} from "@modelcontextprotocol/sdk/types.js";
import {
  DOMAIN_ERRORS, DomainError, JSON_RPC_ERROR, authorize, compileRuntimePrompt, saveRuntimePrompt, listRuntimePrompts, resolveRuntimePrompt, runtimeLabelsToMove, runtimeVersionLabels,
  runtimeSelector, serveRuntimePrompt, serveRuntimeVersion, setRuntimeLabels, type ApiServices, type KeyCaller,
} from "@promptly/api";
import {
  LANGFUSE_MSG, LATEST_LABEL, RUNTIME_DEFAULT_LABEL, defaultPromptTitle, langfusePromptNameSchema, promptLabelSchema, promptLabelsRequestSchema, runtimeCompileInput, runtimeCreatePromptInput, runtimeGetQuery,
  runtimeListQuery, splitLangfuseConfig, runtimeSetLabelInput, type Action, type RuntimeError, type RuntimePrompt, UNIT_HEADER,
} from "@promptly/shared";
import { logRequestFailure } from "../../logger.ts";
import { allow, parseOr400 } from "../v1/http.ts";

type ErrorBody = RuntimeError["error"];
type Contract = RuntimePrompt["variables"][number];

const SERVER_INFO = { name: "promptly", version: "1.0.0" };

/** A failure as REST's error body: its code from the one error table; anything unknown says nothing of our internals (and is logged). */
function errorBody(error: unknown, req: Request): ErrorBody {
  if (error instanceof DomainError) {
    const { code, message, reason, details } = error;
    return { code: DOMAIN_ERRORS[code].code, message, ...(reason ? { reason } : {}), ...(details ? { details: [...details] } : {}) };
  }
  logRequestFailure(req, "MCP request failed", error);
  return { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side. Please try again." };
}

/** A failure of prompts/list or prompts/get: a JSON-RPC error (its code from the one error table) with REST's message, its body as the error's data. */
function rpcFailure(error: unknown, req: Request): McpError {
  const body = errorBody(error, req);
  return new McpError(JSON_RPC_ERROR[body.code], body.message, { error: body });
}

const answer = (value: Record<string, unknown>): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value });

/** One version as the tools answer it: REST's answer, with Langfuse's `prompt` (the text, or the messages) beside it. */
const promptAnswer = (prompt: RuntimePrompt) => ({ ...prompt, prompt: prompt.type === "text" ? (prompt.template ?? "") : (prompt.messages ?? []) });

/** Whether an MCP client must fill the variable: compile refuses it missing unless it is optional or has a default. */
const isRequired = (variable: Contract) => (variable.required ?? true) && variable.default === undefined;

/** An MCP prompt argument (always text) as the variable's type takes it; what does not convert is left as text for compile to refuse by name. */
function typedValue(variable: Contract | undefined, text: string): unknown {
  switch (variable?.type) {
    case "number":
      return text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
    case "boolean":
      return text === "true" ? true : text === "false" ? false : text;
    case "json":
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    default:
      return text;
  }
}

/**
 * prompts/get's arguments as compile takes them, each as its variable's type takes it. The variables are
 * looked up by name in one map: searching the list for each argument was quadratic in their number.
 */
export function argumentValues(variables: readonly Contract[], args: Record<string, string>): Record<string, unknown> {
  const byName = new Map<string, Contract>();
  // The first of a name, as a search of the list finds it.
  for (const variable of variables) if (!byName.has(variable.name)) byName.set(variable.name, variable);
  const values: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(args)) {
    const variable = byName.get(name);
    // A client sends an argument left empty as '': an optional variable then takes its default.
    if (text === "" && variable && !isRequired(variable)) continue;
    values[name] = typedValue(variable, text);
  }
  return values;
}

/**
 * Compiled text or messages as MCP prompt messages, which are only the user's or the assistant's: a
 * system message is sent as the user's, and a placeholder (MCP arguments cannot fill one) adds none.
 */
function promptMessages(compiled: { text?: string; messages?: ({ role: string; content: string } | { type: "placeholder" })[] }): PromptMessage[] {
  const messages = compiled.messages ?? [{ role: "user", content: compiled.text ?? "" }];
  return messages.flatMap((message) =>
    "content" in message ? [{ role: message.role === "assistant" ? "assistant" : "user", content: { type: "text", text: message.content } } as const] : [],
  );
}

const selectorShape = {
  name: z.string().describe("The prompt's name, folders included (e.g. 'support/reply')"),
  label: z.string().optional().describe("The label to fetch (default 'production'; 'latest' is the newest version); not with version"),
  version: z.number().int().optional().describe("The version number to fetch; not with label"),
  unit: z.string().optional().describe("A stable id (a user, a session): a split label serves it the same one of its two versions every time"),
};

const saveShape = {
  name: z.string().describe("The prompt's name: lowercase letters, digits, '-', '_' and '.', with '/' between folders"),
  title: z.string().optional().describe("The title of a new prompt (default: its name); unused when the prompt exists"),
  labels: promptLabelsRequestSchema(z.string()).optional().describe("Labels to point at the new version (never 'production': a team admin moves it in the app)"),
  config: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Optional JSON config (e.g. {temperature: 0.7}); its 'tools' and 'response_format', as OpenAI takes them, are kept as the version's tools and response format"),
  tags: z.array(z.string()).optional().describe("The prompt's tags, on every version: given, they replace its tags ([] clears them); left out, it keeps its tags"),
  commitMessage: z.string().optional().describe("What changed, kept with the version"),
};
type SaveInput = { name: string; title?: string; labels?: string[]; config?: Record<string, unknown>; tags?: string[]; commitMessage?: string };

const labelsInput = z.object({ labels: promptLabelsRequestSchema(promptLabelSchema) });

/** The MCP server one request of a key (`caller`, as the door made it) talks to (a new one for each request: the transport is stateless). */
export function mcpServer(services: ApiServices, caller: KeyCaller, req: Request): McpServer {
  const ip = req.ip ?? null;
  const server = new McpServer(SERVER_INFO, {
    instructions: "Promptly's prompt library as this API key sees it: its team's prompts. Tools fetch, list, compile and (with the write scope) save prompts; the prompts are offered as MCP prompts too (their production versions).",
  });
  // Every process hears of a write from the database's notification; the writer's own next read must not wait for it.
  const changed = () => services.runtime.invalidate(`team:${caller.apiKey.teamId}`);

  /** A tool: the one decision for its action, then its handler; a refusal is a tool error with REST's message and body. */
  function tool<S extends z.ZodRawShape>(
    name: string,
    config: { description: string; inputSchema: S; action: Action },
    handle: (args: z.output<z.ZodObject<S>>) => Promise<Record<string, unknown>>,
  ) {
    const readOnly = config.action !== "prompt.write";
    server.registerTool(
      name,
      { description: config.description, inputSchema: config.inputSchema, annotations: { readOnlyHint: readOnly, destructiveHint: !readOnly } },
      // The SDK has checked the arguments against the shape; the handler checks them with REST's schemas.
      (async (args: z.output<z.ZodObject<S>>): Promise<CallToolResult> => {
        try {
          allow(authorize(caller, config.action));
          return answer(await handle(args));
        } catch (error) {
          const body = errorBody(error, req);
          return { isError: true, content: [{ type: "text", text: body.message }], structuredContent: { error: body } };
        }
      }) as never,
    );
  }

  const fetchDescription = (what: string) =>
    [
      what,
      "",
      "Accepts: name, and a label (default 'production') or a version, not both. A key bound to some labels fetches only those.",
      "Answers: name, title, version, type ('text' or 'chat'), template (text) or messages (chat), prompt (the template or the messages, as Langfuse answers it), variables (the contract compilePrompt checks), model, config, labels, tags, updatedAt.",
    ].join("\n");

  /**
   * One version, its includes resolved (with the resolution graph, null when it includes nothing) or as
   * written. Both tools refuse alike, a version with a label and a prompt not found in the words of
   * Langfuse's MCP read tools (an include not found keeps its own message and reason).
   */
  const fetchPrompt = (resolve: boolean) => async (args: { name: string; label?: string; version?: number; unit?: string }) => {
    if (args.label !== undefined && args.version !== undefined) throw new DomainError("INVALID", LANGFUSE_MSG.mcpVersionAndLabel);
    const selector = runtimeSelector(parseOr400(runtimeGetQuery, { label: args.label, version: args.version, unit: args.unit }), req.headers[UNIT_HEADER]);
    try {
      const served = await serveRuntimeVersion(services, caller, args.name, selector);
      return promptAnswer(resolve ? served.prompt : (served.unresolved ?? served.prompt));
    } catch (error) {
      if (error instanceof DomainError && error.code === "NOT_FOUND" && error.reason === undefined) throw new DomainError("NOT_FOUND", LANGFUSE_MSG.mcpPromptNotFound(args.name, selector));
      throw error;
    }
  };

  tool(
    "getPrompt",
    {
      description: fetchDescription(
        "Fetch one version of a prompt, its includes (@@@langfusePrompt:name=NAME|label=LABEL@@@ or |version=N) resolved; resolutionGraph says what was included (null: nothing).",
      ),
      inputSchema: selectorShape,
      action: "prompt.read",
    },
    fetchPrompt(true),
  );
  tool(
    "getPromptUnresolved",
    {
      description: fetchDescription("Fetch one version of a prompt with its includes (@@@langfusePrompt:...@@@ tags) left as written."),
      inputSchema: selectorShape,
      action: "prompt.read",
    },
    fetchPrompt(false),
  );

  tool(
    "listPrompts",
    {
      description: [
        "List this key's team's prompts (not private, not archived) by name, 50 a page: name, title, labels (each with its version), latestVersion, tags, updatedAt.",
        "",
        "Optional filters: name (exact), label (on any version), tag, folder (a name prefix without the trailing '/'), q (search words).",
        "Pagination: pass nextCursor of the answer as cursor for the next page (null: the last page).",
      ].join("\n"),
      inputSchema: {
        name: z.string().optional().describe("Only the prompt of this exact name"),
        label: z.string().optional().describe("Only prompts with this label on a version (e.g. 'production', 'staging')"),
        tag: z.string().optional().describe("Only prompts with this tag"),
        folder: z.string().optional().describe("Only prompts in this folder (e.g. 'support')"),
        q: z.string().optional().describe("Search words, each a prefix, as the library's search"),
        cursor: z.string().optional().describe("nextCursor of the previous page"),
      },
      // Listing is reading what the key's organization shows it, as REST's listPrompts and /trpc's prompts.list ask.
      action: "organization.read",
    },
    async ({ name, label, ...rest }) => await listRuntimePrompts(services.db, caller, { ...parseOr400(runtimeListQuery, rest), name, label }),
  );

  tool(
    "compilePrompt",
    {
      description: [
        "Fill a version's variables with Promptly's compile: the text (text prompt) or messages (chat prompt).",
        "",
        "Accepts: name, a label (default 'production') or a version, variables ({name: value}, each of the type its contract says),",
        "and placeholders ({name: [{role, content}, ...]}: the messages that go where a chat prompt's placeholder is; one not given stays in place).",
        "Values that break the contract are refused with every problem, each naming its variable.",
      ].join("\n"),
      inputSchema: {
        ...selectorShape,
        variables: z.record(z.string(), z.unknown()).optional().describe("The values, by variable name"),
        placeholders: z.record(z.string(), z.array(z.object({ role: z.string(), content: z.string() }))).optional().describe("The messages of each placeholder, by its name"),
      },
      action: "prompt.read",
    },
    async (args) => {
      const input = parseOr400(runtimeCompileInput, { label: args.label, version: args.version, unit: args.unit, variables: args.variables, placeholders: args.placeholders });
      const prompt = await serveRuntimePrompt(services, caller, args.name, runtimeSelector(input, req.headers[UNIT_HEADER]));
      const result = compileRuntimePrompt(prompt, input.variables, input.placeholders);
      if (!result.ok) throw new DomainError("INVALID", result.message, undefined, result.problems.map((problem) => ({ variable: problem.variable, message: problem.message })));
      const { ok: _ok, ...compiled } = result;
      return { name: prompt.name, ...compiled };
    },
  );

  // The write tools are offered only to a key the one decision lets write (the `write` scope); a key
  // that may only read does not see them, so an agent is never offered what it may not do.
  if (authorize(caller, "prompt.write").ok) registerWriteTools();

  function registerWriteTools() {
    /** The prompt of that name as listPrompts shows it (its tags, its labels and their versions), if the key sees it. */
    const listed = async (name: string) => (await listRuntimePrompts(services.db, caller, { name })).items[0];
    /** The labels on a version as Langfuse answers them: `latest` on the newest. */
    const labelsOn = (prompt: Awaited<ReturnType<typeof listed>>, version: number) => [
      ...(prompt?.labels ?? []).filter((label) => label.version === version).map((label) => label.name),
      ...(prompt?.latestVersion === version ? [LATEST_LABEL] : []),
    ];

    /** A new prompt with its version 1, or, when the name exists, its next version (REST's create, or its createVersion), with its labels in the same transaction. */
    async function save(input: SaveInput, body: { type: "text"; template: string } | { type: "chat"; messages: unknown }) {
      // Everything is checked before the first write: the labels (a key never moves production), then the prompt.
      // `latest` asked of a new version is where it goes anyway: taken as said, not set.
      const { labels } = parseOr400(labelsInput, { labels: (input.labels ?? []).filter((label) => label !== LATEST_LABEL) });
      for (const label of labels) allow(authorize(caller, "prompt.write", { label }));
      // The name alone first, as the Langfuse API checks it: one Promptly refuses is told the nearest it accepts.
      parseOr400(z.object({ name: langfusePromptNameSchema }), { name: input.name });
      // As the Langfuse API: OpenAI's `tools` and `response_format` in config become the version's own.
      const split = splitLangfuseConfig(input.config ?? {});
      if ("problem" in split) throw new DomainError("INVALID", split.problem, undefined, [{ path: split.path, message: split.problem }]);
      const version = { ...body, ...split, config: input.config && split.config, commitMessage: input.commitMessage };
      const fresh = parseOr400(runtimeCreatePromptInput, { name: input.name, title: input.title ?? defaultPromptTitle(input.name), visibility: "team", tags: input.tags, ...version });
      const saved = await saveRuntimePrompt(services.db, caller, fresh, services.now(), ip, labels);
      changed();
      const after = await listed(saved.name);
      const onVersion = labelsOn(after, saved.version);
      return {
        id: saved.versionId, name: saved.name, version: saved.version, type: body.type, created: saved.created ? "prompt" : "version", labels: onVersion,
        tags: after?.tags ?? [], config: input.config ?? {}, createdBy: "API",
        message: `Successfully created ${body.type} prompt '${saved.name}' version ${saved.version}${onVersion.length ? ` with labels: ${onVersion.join(", ")}` : ""}`,
      };
    }

    const saveDescription = (what: string, accepts: string) =>
      [
        what,
        "",
        "Important:",
        "- Versions are immutable: to change a prompt, save its next version (this tool, with the same name)",
        "- A new prompt is visible to the key's team; its title defaults to its name",
        "- Labels move to the new version; 'production' is never moved by an API key (a team admin moves it in the app), and 'latest' is always the newest version (asked for, it is there anyway)",
        "",
        `Accepts: name, ${accepts}, optional title, labels, config, tags, commitMessage`,
        "Answers: id (the new version's), name, version, type, created ('prompt' or 'version'), labels (on the new version, 'latest' included), tags, config, createdBy ('API'), message",
      ].join("\n");

    tool(
      "createTextPrompt",
      {
        description: saveDescription("Create a text prompt, or the next version of the text prompt of that name. Variables are written {{ name }}.", "prompt (the text)"),
        inputSchema: { ...saveShape, prompt: z.string().describe("The text, with {{ variables }}") },
        action: "prompt.write",
      },
      async ({ prompt, ...input }) => await save(input, { type: "text", template: prompt }),
    );
    tool(
      "createChatPrompt",
      {
        description: saveDescription(
          "Create a chat prompt, or the next version of the chat prompt of that name: messages with a role (system, user, assistant) and content with {{ variables }}, and placeholders ({type: 'placeholder', name}) where a list of messages goes when the prompt is used.",
          "prompt (an array of {role, content} or {type: 'placeholder', name})",
        ),
        inputSchema: {
          ...saveShape,
          prompt: z
            .array(
              z.union([
                z.object({ role: z.string().describe("system, user or assistant"), content: z.string() }),
                z.object({ type: z.literal("placeholder"), name: z.string().describe("Letters, digits and _, not a variable's name") }),
              ]),
            )
            .describe("The messages, in order"),
        },
        action: "prompt.write",
      },
      async ({ prompt, ...input }) => await save(input, { type: "chat", messages: prompt }),
    );

    tool(
      "updatePromptLabels",
      {
        description: [
          "Point labels at a version of a prompt: each label leaves the version it was on (a label is on one version at a time); other labels stay where they are. A label already on the version (as getPrompt lists it: on it, or through a split) stays as it is (a split stays split).",
          "",
          "'production' is never moved by an API key (a team admin moves it in the app); 'latest' is always the newest version and cannot be set.",
          "Accepts: name, version, newLabels (the labels to point at it; an empty list changes nothing). Answers the labels now on the version ('latest' included on the newest).",
        ].join("\n"),
        inputSchema: {
          name: z.string().describe("The prompt's name"),
          version: z.number().int().describe("The version the labels point at"),
          newLabels: promptLabelsRequestSchema(z.string()).describe("The labels to point at the version"),
        },
        action: "prompt.write",
      },
      async ({ name, version: asked, newLabels }) => {
        const { version } = parseOr400(runtimeSetLabelInput, { version: asked });
        const { labels: named } = parseOr400(labelsInput, { labels: newLabels });
        // A label already on the version (on it, or through a split as its base or its candidate), as its fetch
        // names it, is there already: sent back as read, it moves nothing and ends no split (as the Langfuse
        // API's PATCH); decided again under the prompt's lock as the others move.
        const { move, keep } = await runtimeLabelsToMove(services.db, caller, name, version, named);
        const moved = await setRuntimeLabels(services.db, caller, name, move, version, services.now(), ip, keep);
        if (moved.length) changed();
        // As a fetch of the version names them (a split label whose candidate it is, too), to a key that may
        // fetch it; another is answered as listPrompts shows it the labels (a split label on its base alone).
        const read = await runtimeVersionLabels(services.db, caller, name, version);
        const after = read
          ? [...read.labels, ...(read.latestVersion === version ? [LATEST_LABEL] : [])]
          : labelsOn(await listed(name), version);
        return { name, version, labels: after, message: `Successfully updated labels for '${name}' version ${version}. Labels are now: ${after.join(", ") || "(none)"}` };
      },
    );
  }

  // MCP prompts: the key's prompts that have a production version, as the key fetches them by default,
  // with their arguments from its variable contract. Asked of the decision as a fetch of production.
  server.server.registerCapabilities({ prompts: {} });
  const production = { label: RUNTIME_DEFAULT_LABEL };

  server.server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    try {
      allow(authorize(caller, "organization.read"));
      allow(authorize(caller, "prompt.read", { fetch: production }));
      const page = await listRuntimePrompts(services.db, caller, { ...parseOr400(runtimeListQuery, { cursor: request.params?.cursor }), label: RUNTIME_DEFAULT_LABEL });
      const prompts = await Promise.all(
        page.items.map(async (item): Promise<Prompt> => {
          // What a fetch would be served, without counting a use: listing is not fetching.
          const { prompt } = await resolveRuntimePrompt(services, caller, item.name, production);
          return {
            name: prompt.name,
            title: prompt.title,
            description: `${prompt.title} (version ${prompt.version}, production)`,
            arguments: prompt.variables.map((variable) => ({
              name: variable.name,
              description: variable.description ?? (variable.type === "enum" ? `One of: ${(variable.options ?? []).join(", ")}` : `A ${variable.type}`),
              required: isRequired(variable),
            })),
          };
        }),
      );
      return { prompts, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    } catch (error) {
      throw rpcFailure(error, req);
    }
  });

  server.server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    try {
      const prompt = await serveRuntimePrompt(services, caller, request.params.name, production);
      const result = compileRuntimePrompt(prompt, argumentValues(prompt.variables, request.params.arguments ?? {}));
      if (!result.ok) throw new DomainError("INVALID", result.message, undefined, result.problems.map((problem) => ({ variable: problem.variable, message: problem.message })));
      return { description: `${prompt.title} (version ${prompt.version}, production)`, messages: promptMessages(result) };
    } catch (error) {
      throw rpcFailure(error, req);
    }
  });

  return server;
}
