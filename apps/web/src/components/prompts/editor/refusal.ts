// Field messages of a refused save (by the shared schema or the server), each shown until its field changes.
import { useState } from "react";
import type { z } from "zod";

type FieldValues = Record<string, string>;

export function useRefusal(values: FieldValues) {
  const [refusal, setRefusal] = useState<{ messages: Record<string, string | undefined>; values: FieldValues } | null>(null);
  return {
    /** Remembers the messages with the values they were about (those of the render that saved). */
    refuse: (messages: Record<string, string | undefined>) => setRefusal({ messages, values }),
    message: (field: string) => (refusal && refusal.values[field] === values[field] ? refusal.messages[field] : undefined),
  };
}

/** The first message per field of a schema's refusal. */
export function issuesByField(error: z.ZodError): Record<string, string | undefined> {
  const fields: Record<string, string | undefined> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    fields[field] ??= issue.message;
  }
  return fields;
}

/** The first message of a value the schema refuses. */
export const firstIssue = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;
