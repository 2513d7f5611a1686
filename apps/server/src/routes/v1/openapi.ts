// The OpenAPI 3.1 document of /api/v1, generated from the shared zod schemas the routes validate
// with (zod's own JSON Schema output, draft 2020-12, which is OpenAPI 3.1's dialect). The table of
// operations below is the contract: the document is made from it and the tests check every route
// answers as it says.
import { z } from "zod";
import {
  runtimeCompileInput, runtimeCompiled, runtimeCreatePromptInput, runtimeCreateVersionInput, runtimeCreatedPrompt, runtimeCreatedVersion,
  runtimeError, runtimeGetQuery, runtimeLabelSet, runtimeListQuery, runtimePrompt, runtimePromptPage, runtimeSetLabelInput,
} from "@promptly/shared";

interface Answer {
  description: string;
  schema?: z.ZodType;
  headers?: Record<string, string>;
}

interface Operation {
  id: string;
  method: "get" | "post" | "put";
  /** OpenAPI path, under /api/v1. */
  path: string;
  summary: string;
  scope: "read" | "write";
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, Answer>;
}

/** Named schemas: the document's components, each once. */
const SCHEMAS = new Map<z.ZodType, { name: string; io: "input" | "output" }>([
  [runtimePrompt, { name: "Prompt", io: "output" }],
  [runtimeCompiled, { name: "Compiled", io: "output" }],
  [runtimePromptPage, { name: "PromptPage", io: "output" }],
  [runtimeCreatedPrompt, { name: "CreatedPrompt", io: "output" }],
  [runtimeCreatedVersion, { name: "CreatedVersion", io: "output" }],
  [runtimeLabelSet, { name: "LabelSet", io: "output" }],
  [runtimeError, { name: "Error", io: "output" }],
  [runtimeCompileInput, { name: "CompileInput", io: "input" }],
  [runtimeCreatePromptInput, { name: "CreatePromptInput", io: "input" }],
  [runtimeCreateVersionInput, { name: "CreateVersionInput", io: "input" }],
  [runtimeSetLabelInput, { name: "SetLabelInput", io: "input" }],
]);

const error = (description: string): Answer => ({ description, schema: runtimeError });
const COMMON_ERRORS: Record<number, Answer> = {
  401: error("No key, a malformed, unknown, revoked or expired key: the message says which"),
  429: { ...error("Over the key's request limit a minute"), headers: { "Retry-After": "Seconds until the key may ask again" } },
};
const NAME_ERRORS: Record<number, Answer> = {
  404: error("No such prompt for this key (another team's, private, archived), or no such label or version"),
};

export const V1_OPERATIONS: Operation[] = [
  {
    id: "listPrompts",
    method: "get",
    path: "/prompts",
    summary: "List the team's prompts (not private, not archived), by name, 50 a page",
    scope: "read",
    query: runtimeListQuery,
    responses: { 200: { description: "A page of prompts", schema: runtimePromptPage }, 400: error("Invalid filters or cursor"), ...COMMON_ERRORS },
  },
  {
    id: "createPrompt",
    method: "post",
    path: "/prompts",
    summary: "Create a prompt and its version 1 in the key's team (the write scope; never private)",
    scope: "write",
    body: runtimeCreatePromptInput,
    responses: {
      201: { description: "Created", schema: runtimeCreatedPrompt },
      400: error("Invalid input: every problem in details"),
      403: error("The key may only read"),
      409: error("A prompt with this name already exists in this team"),
      ...COMMON_ERRORS,
    },
  },
  {
    id: "getPrompt",
    method: "get",
    path: "/prompts/{name}",
    summary: "Fetch one version of a prompt: by label (default production) or by version",
    scope: "read",
    query: runtimeGetQuery,
    responses: {
      200: { description: "The version", schema: runtimePrompt, headers: { ETag: "Strong validator of the answer" } },
      304: { description: "Not modified: If-None-Match matched the ETag" },
      400: error("Both a label and a version, or an invalid one"),
      403: error("The key may only fetch other labels: the message names them"),
      ...NAME_ERRORS,
      ...COMMON_ERRORS,
    },
  },
  {
    id: "compilePrompt",
    method: "post",
    path: "/prompts/{name}/compile",
    summary: "Fill a version's variables with the shared compile",
    scope: "read",
    body: runtimeCompileInput,
    responses: {
      200: { description: "The text (text prompt) or messages (chat prompt)", schema: runtimeCompiled },
      400: error("The variables break the contract: every problem in details"),
      403: error("The key may only fetch other labels"),
      ...NAME_ERRORS,
      ...COMMON_ERRORS,
    },
  },
  {
    id: "createVersion",
    method: "post",
    path: "/prompts/{name}/versions",
    summary: "Save the next version of a prompt (the write scope)",
    scope: "write",
    body: runtimeCreateVersionInput,
    responses: {
      201: { description: "Created", schema: runtimeCreatedVersion },
      400: error("Invalid input: every problem in details"),
      403: error("The key may only read"),
      ...NAME_ERRORS,
      409: error("The prompt was archived meanwhile"),
      ...COMMON_ERRORS,
    },
  },
  {
    id: "setLabel",
    method: "put",
    path: "/prompts/{name}/labels/{label}",
    summary: "Point a label at a version (the write scope; never production)",
    scope: "write",
    body: runtimeSetLabelInput,
    responses: {
      200: { description: "The label's new place", schema: runtimeLabelSet },
      400: error("Invalid label or version"),
      403: error("The key may only read, or the label is production"),
      ...NAME_ERRORS,
      409: error("The prompt was archived meanwhile"),
      ...COMMON_ERRORS,
    },
  },
];

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  // Refinements (lint, "a label or a version") are checked by the server; JSON Schema states the shapes.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" });
  return rest;
}

const ref = (schema: z.ZodType) => {
  const named = SCHEMAS.get(schema);
  if (!named) throw new Error("every schema of an operation is named in SCHEMAS");
  return { $ref: `#/components/schemas/${named.name}` };
};

function parameters(operation: Operation) {
  const inPath = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    description: name === "name" ? "The prompt's name; one with '/' may be sent plain (a/b) or encoded (a%2Fb)" : undefined,
    schema: { type: "string" },
  }));
  const inQuery = Object.entries(operation.query?.shape ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    schema: jsonSchema(schema as z.ZodType, "input"),
  }));
  return [...inPath, ...inQuery];
}

/** The OpenAPI 3.1 document, built once per process. */
export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of V1_OPERATIONS) {
    const responses = Object.fromEntries(
      Object.entries(operation.responses).map(([status, answer]) => [
        status,
        {
          description: answer.description,
          ...(answer.headers && {
            headers: Object.fromEntries(Object.entries(answer.headers).map(([name, description]) => [name, { description, schema: { type: "string" } }])),
          }),
          ...(answer.schema && { content: { "application/json": { schema: ref(answer.schema) } } }),
        },
      ]),
    );
    (paths[operation.path] ??= {})[operation.method] = {
      summary: operation.summary,
      operationId: operation.id,
      "x-scope": operation.scope,
      parameters: parameters(operation),
      ...(operation.body && { requestBody: { required: true, content: { "application/json": { schema: ref(operation.body) } } } }),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Promptly runtime API",
      version: "1",
      description:
        "Fetch, compile and (with the write scope) create prompts with a team's API key. A key acts only within its team, sees the team's prompts that are not private and not archived, fetches only the labels it is bound to, and never moves production.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "A team API key: promptly_ and 43 letters and digits" } },
      schemas: Object.fromEntries([...SCHEMAS].map(([schema, { name, io }]) => [name, jsonSchema(schema, io)])),
    },
  };
}
