// The OpenAPI 3.1 document of /api/v1, generated from the shared zod schemas the routes validate
// with (zod's own JSON Schema output, draft 2020-12, which is OpenAPI 3.1's dialect). The table of
// operations (operations.ts) is the contract: the routes are registered from it, the document is made
// from it, and the tests check every route answers as it says.
import { z } from "zod";
import {
  evaluationItemsAnswer, runtimeCompileInput, runtimeCompiled, runtimeCreatePromptInput, runtimeCreateVersionInput, runtimeCreatedPrompt, runtimeCreatedVersion,
  generationPage, runtimeProductionMetrics,
  runtimeError, runtimeEvaluationInput, runtimeEvaluationSummary, runtimeLabelSet, runtimePrompt, runtimePromptPage, runtimeRunInput, runtimeRunResult, runtimeSetLabelInput,
} from "@promptly/shared";
import { keyScopeFor } from "@promptly/api";
import { runtimeScoreAnswer, runtimeScoreInput } from "@promptly/shared";
import { V1_OPERATIONS, pathParameters, type Operation } from "./operations.ts";

export { V1_OPERATIONS };

/** Named schemas: the document's components, each once. */
const SCHEMAS = new Map<z.ZodType, { name: string; io: "input" | "output" }>([
  [runtimePrompt, { name: "Prompt", io: "output" }],
  [runtimeCompiled, { name: "Compiled", io: "output" }],
  [runtimePromptPage, { name: "PromptPage", io: "output" }],
  [runtimeCreatedPrompt, { name: "CreatedPrompt", io: "output" }],
  [runtimeCreatedVersion, { name: "CreatedVersion", io: "output" }],
  [runtimeLabelSet, { name: "LabelSet", io: "output" }],
  [runtimeRunResult, { name: "RunResult", io: "output" }],
  [runtimeError, { name: "Error", io: "output" }],
  [runtimeCompileInput, { name: "CompileInput", io: "input" }],
  [runtimeCreatePromptInput, { name: "CreatePromptInput", io: "input" }],
  [runtimeCreateVersionInput, { name: "CreateVersionInput", io: "input" }],
  [runtimeSetLabelInput, { name: "SetLabelInput", io: "input" }],
  [runtimeRunInput, { name: "RunInput", io: "input" }],
  [runtimeEvaluationSummary, { name: "Evaluation", io: "output" }],
  [runtimeEvaluationInput, { name: "EvaluationInput", io: "input" }],
  [evaluationItemsAnswer, { name: "EvaluationItems", io: "output" }],
  [runtimeProductionMetrics, { name: "ProductionMetrics", io: "output" }],
  [generationPage, { name: "GenerationPage", io: "output" }],
  [runtimeScoreInput, { name: "ScoreInput", io: "input" }],
  [runtimeScoreAnswer, { name: "Score", io: "output" }],
]);

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
  const inPath = pathParameters(operation.path).map((name) => ({
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
  const inHeaders = Object.entries(operation.headers ?? {}).map(([name, description]) => ({ name, in: "header", required: false, description, schema: { type: "string" } }));
  return [...inPath, ...inQuery, ...inHeaders];
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
          ...(answer.schema && {
            content: {
              "application/json": { schema: ref(answer.schema) },
              ...(answer.events && { "text/event-stream": { schema: { type: "string", description: answer.events } } }),
              ...Object.fromEntries(Object.entries(answer.formats ?? {}).map(([type, description]) => [type, { schema: { type: "string", description } }])),
            },
          }),
        },
      ]),
    );
    (paths[operation.path] ??= {})[operation.method] = {
      summary: operation.summary,
      operationId: operation.id,
      "x-scope": keyScopeFor(operation.action),
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
        "Fetch, compile, (with the write scope) create and (with the run scope) run prompts with a team's API key. A key acts only within its team, sees the team's prompts that are not private and not archived, fetches only the labels it is bound to, and never moves production.",
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
