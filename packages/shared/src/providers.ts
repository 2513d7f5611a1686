// Model provider connections of an organization: kinds, limits, texts, input schemas and the
// built-in price table, shared by the procedures and the organization's Providers page.
import { z } from "zod";
import { idSchema, plainText } from "./validation.ts";

/** `openai-compatible` speaks OpenAI's chat API at its own base URL (Ollama, vLLM, LM Studio, OpenRouter, Groq…). */
export const PROVIDER_KINDS = ["openai", "anthropic", "openai-compatible"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
/** How the interface names each kind. */
export const PROVIDER_KIND_LABELS: Record<ProviderKind, string> = { openai: "OpenAI", anthropic: "Anthropic", "openai-compatible": "OpenAI-compatible" };

const PROVIDER_NAME_MAX = 100;
const PROVIDER_KEY_MAX = 500;
const PROVIDER_MODELS_MAX = 50;
const MODEL_NAME_MAX = 200;

export const PROVIDER_MSG = {
  nameRequired: "Name is required",
  nameTooLong: `A connection name has at most ${PROVIDER_NAME_MAX} characters`,
  nameTaken: "A connection with this name already exists in this organization",
  kindInvalid: "A provider is 'openai', 'anthropic' or 'openai-compatible'",
  keyRequired: "API key is required",
  keyTooLong: `An API key has at most ${PROVIDER_KEY_MAX} characters`,
  keyRequiredForBaseUrl: "Enter the API key again to change the base URL",
  /** A stored key sealed under another app secret: no call can be made with it. */
  keyUnreadable: (name: string) => `The API key of the connection '${name}' could not be read (was APP_SECRET changed?): enter it again`,
  baseUrlRequired: "An OpenAI-compatible connection needs its base URL",
  baseUrlInvalid: "The base URL must be an http or https URL without credentials, query or fragment",
  baseUrlPrivate:
    "This base URL points to a private or loopback address; set ALLOW_PRIVATE_PROVIDER_URLS=true on the server to allow self-hosted models",
  modelInvalid: `A model name has 1 to ${MODEL_NAME_MAX} characters`,
  tooManyModels: `A connection offers at most ${PROVIDER_MODELS_MAX} models`,
  teamNotInOrganization: "Every team must belong to this organization",
  notFound: "Provider connection not found",
  priceInvalid: "A price is a number of US dollars per million tokens, from 0 to 10,000",
  // A provider call that failed, in plain words with what to do; `name` is the connection's ("Local vLLM").
  /** `Could not reach Local vLLM at 127.0.0.1:3959: is the server running?` */
  unreachable: (name: string, address: string) => `Could not reach ${name} at ${address}: is the server running?`,
  unknownHost: (name: string, host: string) => `Could not reach ${name}: no server is known by the name ${host}; check its base URL under Model Providers`,
  keyRefused: (name: string) => `${name} refused the key: update it under Model Providers`,
  noSuchModel: (name: string, model?: string) =>
    model ? `${name} has no model '${model}': choose another model, or check the connection's models under Model Providers` : `${name} has no such model or endpoint: check its base URL under Model Providers`,
  rateLimited: (name: string, retryAfterMs?: number) =>
    `${name} is rate limiting requests (429): retry ${retryAfterMs === undefined ? "in a moment" : `in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`}`,
  providerFailed: (name: string, status: number) => `${name} failed with status ${status}: try again later`,
  requestRefused: (name: string, status: number | null) => `${name} refused the request${status === null ? "" : ` (status ${status})`}: see Details`,
  timedOut: (name: string, ms: number) => `${name} did not answer within ${Math.round(ms / 1000)} s: try again, or with a shorter input`,
  privateAddress: (name: string, address: string) =>
    `${name}'s base URL resolves to the private address ${address}, which is not allowed on this server`,
  redirected: (name: string, status: number, host: string | null) =>
    `${name} answered ${status} (${host ? `a redirect to ${host}` : "a redirect"}), and provider calls do not follow redirects`,
  failedOther: (name: string) => `The call to ${name} failed: see Details`,
  answerTooLarge: (name: string, mib: number) => `${name} sent an answer larger than ${mib} MiB, more than any model's answer: check its base URL`,
  /** Which connection a run uses when it names none, and why: `Uses B good: the team's default`. */
  usesConnection: (name: string, reason: "team" | "organization" | "onlyTested") =>
    `Uses ${name}: ${reason === "team" ? "the team's default" : reason === "organization" ? "the organization's default" : "the only connection that passed its test"}`,
  noConnectionChosen:
    "No connection is chosen: this team and its organization have no default, and not exactly one connection passed its test. Pick one below, or test one under Model Providers",
  defaultNotOpenToTeam: "This connection is not open to this team: open it to the team under Model Providers first",
} as const;

const providerNameSchema = plainText().trim().min(1, PROVIDER_MSG.nameRequired).max(PROVIDER_NAME_MAX, PROVIDER_MSG.nameTooLong);
const providerKeySchema = z.string().trim().min(1, PROVIDER_MSG.keyRequired).max(PROVIDER_KEY_MAX, PROVIDER_MSG.keyTooLong);
const modelNameSchema = z.string().trim().min(1, PROVIDER_MSG.modelInvalid).max(MODEL_NAME_MAX, PROVIDER_MSG.modelInvalid);
const modelsSchema = z
  .array(modelNameSchema)
  .transform((models) => [...new Set(models)])
  .refine((models) => models.length <= PROVIDER_MODELS_MAX, PROVIDER_MSG.tooManyModels);
/** An http(s) URL with no credentials, query or fragment; its trailing slash dropped. Where it may point is the server's rule. */
const baseUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, PROVIDER_MSG.baseUrlInvalid)
  .transform((value) => value.replace(/\/+$/, ""));
const teamIdsSchema = z.array(idSchema).transform((ids) => [...new Set(ids)]);

export const createProviderInput = z
  .object({
    organizationId: idSchema,
    kind: z.enum(PROVIDER_KINDS, { error: PROVIDER_MSG.kindInvalid }),
    name: providerNameSchema,
    baseUrl: baseUrlSchema.nullish(),
    apiKey: providerKeySchema,
    models: modelsSchema.optional(),
    teamIds: teamIdsSchema.optional(),
  })
  .refine((input) => input.kind !== "openai-compatible" || !!input.baseUrl, { message: PROVIDER_MSG.baseUrlRequired, path: ["baseUrl"] });

/** What an update changes; absent fields stay. A new `apiKey` replaces the stored one (which is never read back). */
export const updateProviderInput = z.object({
  id: idSchema,
  name: providerNameSchema.optional(),
  baseUrl: baseUrlSchema.nullish(),
  apiKey: providerKeySchema.optional(),
  models: modelsSchema.optional(),
  teamIds: teamIdsSchema.optional(),
});

/**
 * Whether an update of a connection whose base URL is `storedBaseUrl` must bring its key: one that
 * points it elsewhere does (the stored key would go to the new address, whoever runs it).
 */
export const updateNeedsKey = (storedBaseUrl: string | null, update: { baseUrl?: string | null; apiKey?: string }): boolean =>
  update.baseUrl !== undefined && (update.baseUrl ?? null) !== storedBaseUrl && update.apiKey === undefined;

const priceSchema = z.number({ error: PROVIDER_MSG.priceInvalid }).min(0, PROVIDER_MSG.priceInvalid).max(10_000, PROVIDER_MSG.priceInvalid);

export const setModelPriceInput = z.object({
  organizationId: idSchema,
  model: modelNameSchema,
  inputPerMillion: priceSchema,
  outputPerMillion: priceSchema,
});

export interface ModelPriceEntry {
  model: string;
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * Built-in prices (US dollars per million tokens, input and output) of well-known models, as their
 * providers list them; an organization admin's own price for a model replaces its row. A model that is
 * in neither has no known cost (shown as such, never as 0).
 */
export const DEFAULT_MODEL_PRICES: readonly ModelPriceEntry[] = [
  { model: "gpt-4o", inputPerMillion: 2.5, outputPerMillion: 10 },
  { model: "gpt-4o-mini", inputPerMillion: 0.15, outputPerMillion: 0.6 },
  { model: "gpt-4.1", inputPerMillion: 2, outputPerMillion: 8 },
  { model: "gpt-4.1-mini", inputPerMillion: 0.4, outputPerMillion: 1.6 },
  { model: "gpt-4.1-nano", inputPerMillion: 0.1, outputPerMillion: 0.4 },
  { model: "o3", inputPerMillion: 2, outputPerMillion: 8 },
  { model: "o4-mini", inputPerMillion: 1.1, outputPerMillion: 4.4 },
  { model: "claude-opus-4-1", inputPerMillion: 15, outputPerMillion: 75 },
  { model: "claude-sonnet-4-5", inputPerMillion: 3, outputPerMillion: 15 },
  { model: "claude-haiku-4-5", inputPerMillion: 1, outputPerMillion: 5 },
  { model: "claude-3-5-haiku-latest", inputPerMillion: 0.8, outputPerMillion: 4 },
];
