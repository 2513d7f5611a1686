// Field messages of a refused form: the server's error formatter sends zod's flattened issues.
/** The first message per field of a BAD_REQUEST from the server. */
export function serverFieldErrors(error: { data?: unknown }): Record<string, string | undefined> {
  const zodError = (error.data as { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null } | undefined)?.zodError;
  const result: Record<string, string | undefined> = {};
  for (const [field, messages] of Object.entries(zodError?.fieldErrors ?? {})) result[field] = messages?.[0];
  return result;
}
