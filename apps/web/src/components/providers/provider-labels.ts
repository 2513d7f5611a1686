// What the Model providers page shows of a connection, and how it reads a refusal of the server.
import { PROVIDER_MSG } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { serverFieldErrors } from "@/lib/form-errors";

export type ProviderConnection = RouterOutputs["providers"]["list"][number];
export type ModelPrice = RouterOutputs["providers"]["prices"][number];

/** A key as the page shows it: never the key, only its last four characters. */
export const maskedKey = (last4: string) => `••••${last4}`;

/** A comma- or line-separated list typed into a field, as names (empty entries dropped). */
export const splitList = (value: string) =>
  value
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Which field of the connection form a server message is about (null: the form as a whole). */
const FIELD_OF_MESSAGE: Partial<Record<string, "name" | "baseUrl" | "apiKey" | "models" | "teamIds">> = {
  [PROVIDER_MSG.nameTaken]: "name",
  [PROVIDER_MSG.baseUrlPrivate]: "baseUrl",
  [PROVIDER_MSG.baseUrlRequired]: "baseUrl",
  [PROVIDER_MSG.baseUrlInvalid]: "baseUrl",
  [PROVIDER_MSG.teamNotInOrganization]: "teamIds",
  [PROVIDER_MSG.keyRequiredForBaseUrl]: "apiKey",
};

/**
 * A refusal of the server, placed where the form shows it: the flattened zod issues under their
 * fields, a known message under its field, anything else above the buttons.
 */
export function placeServerError(error: { message: string; data?: unknown }): { fields: Record<string, string | undefined>; form: string | null } {
  const fields = serverFieldErrors(error);
  if (Object.values(fields).some(Boolean)) return { fields, form: null };
  const field = FIELD_OF_MESSAGE[error.message];
  return field ? { fields: { [field]: error.message }, form: null } : { fields: {}, form: error.message };
}
