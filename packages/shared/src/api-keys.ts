// Team-scoped API keys for the runtime API: scopes, limits, texts and input schemas shared
// by the procedures and the Teams page's key panel.
import { z } from "zod";
import { LATEST_LABEL, promptLabelSchema } from "./prompts.ts";
import { plainText } from "./validation.ts";

/**
 * `read` fetches and compiles prompts; `write` also creates prompts and versions and moves labels (never
 * `production`); `run` also runs them on the organization's models (it costs money, so `write` does not imply it);
 * `delete` also deletes prompts and versions (never the version `production` points to, nor what another
 * prompt includes; it cannot be undone, so no other scope implies it); `ingest` sends production generations and
 * scores into the key's team (OpenTelemetry, the Langfuse SDKs' ingestion, /api/v1/scores), linked to the prompts its team reads.
 */
export const API_KEY_SCOPES = ["read", "write", "run", "delete", "ingest"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every key starts so: secret scanners and people recognise it. */
export const API_KEY_PREFIX = "promptly_";
/**
 * A key's public half, for the Langfuse SDKs' HTTP Basic `publicKey:secretKey` (the secret is the key
 * itself): `pk-lf-` and the key's id. Not secret (the id is in the key list); it only has to match.
 */
export const API_KEY_PUBLIC_PREFIX = "pk-lf-";
const API_KEY_NAME_MAX = 100;
const API_KEY_LABELS_MAX = 20;
const API_KEY_EXPIRY_DAYS_MAX = 365;

export const API_KEY_MSG = {
  nameRequired: "Name is required",
  nameTooLong: `A key name has at most ${API_KEY_NAME_MAX} characters`,
  labelsEmpty: "Choose at least one label, or none at all for a key that may fetch any label",
  tooManyLabels: `A key is bound to at most ${API_KEY_LABELS_MAX} labels`,
  scopesEmpty: "Choose at least one scope",
  scopeInvalid: "A scope is 'read', 'write', 'run', 'delete' or 'ingest'",
  expiresInDaysRange: `A key expires in 1 to ${API_KEY_EXPIRY_DAYS_MAX} days, or never`,
  notFound: "API key not found",
  // What a refused key is told (the runtime API answers 401 with these).
  invalidKey: "Invalid API key",
  revokedKey: "This API key has been revoked",
  expiredKey: "This API key has expired",
  // What a valid key is told on the tRPC API (/trpc) where it may not go.
  personOnly: "An API key may only read and write its team's prompts: this needs a signed-in person",
  /** `This API key is bound to the labels production, staging: it fetches them from /api/v1 only`. */
  labelBound: (labels: readonly string[]) => `This API key is bound to the labels ${labels.join(", ")}: it fetches them from /api/v1 only`,
} as const;

const apiKeyNameSchema = plainText()
  .trim()
  .min(1, API_KEY_MSG.nameRequired)
  .max(API_KEY_NAME_MAX, API_KEY_MSG.nameTooLong);

/**
 * The labels a key may fetch, without repeats; `latest` is allowed (a key may follow the newest version).
 * Absent or null: any label and explicit versions. An empty list would be a key that fetches nothing: refused.
 */
const apiKeyLabelsSchema = z
  .array(z.union([promptLabelSchema, z.literal(LATEST_LABEL)]))
  .min(1, API_KEY_MSG.labelsEmpty)
  .transform((labels) => [...new Set(labels)])
  .refine((labels) => labels.length <= API_KEY_LABELS_MAX, API_KEY_MSG.tooManyLabels);

/**
 * Without repeats, in the table's order; `write`, `run` and `delete` each imply `read` (none implies another), so a
 * stored key always holds `read`. Absent: `["read"]`.
 */
const apiKeyScopesSchema = z
  .array(z.enum(API_KEY_SCOPES, { error: API_KEY_MSG.scopeInvalid }))
  .min(1, API_KEY_MSG.scopesEmpty)
  .transform((scopes): ApiKeyScope[] => API_KEY_SCOPES.filter((scope) => scope === "read" || scopes.includes(scope)));

export const createApiKeyInput = z.object({
  name: apiKeyNameSchema,
  labels: apiKeyLabelsSchema.nullish(),
  scopes: apiKeyScopesSchema.optional(),
  expiresInDays: z
    .number({ error: API_KEY_MSG.expiresInDaysRange })
    .int(API_KEY_MSG.expiresInDaysRange)
    .min(1, API_KEY_MSG.expiresInDaysRange)
    .max(API_KEY_EXPIRY_DAYS_MAX, API_KEY_MSG.expiresInDaysRange)
    .nullish(),
});
/** A new key's settings, as checked: labels and scopes without repeats, scopes always with `read`. */
export type ApiKeySettings = z.output<typeof createApiKeyInput>;
