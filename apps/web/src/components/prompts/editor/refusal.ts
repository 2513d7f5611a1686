// Field messages of a refused save (by the shared schema or the server), each shown until its field changes.
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";

type FieldValues = Record<string, string>;

export function useRefusal(values: FieldValues) {
  const [refusal, setRefusal] = useState<{ messages: Record<string, string | undefined>; values: FieldValues } | null>(null);
  /** Remembers the messages with the values they were about (those of the render that saved). */
  const refuse = (messages: Record<string, string | undefined>) => setRefusal({ messages, values });
  return {
    /**
     * A server's refusal, told once: under the form's fields it names, or, when it names none of
     * them, its message in a toast.
     */
    refuseFromServer(fields: Record<string, string | undefined>, message: string, formFields: readonly string[]) {
      refuse(fields);
      if (!formFields.some((field) => fields[field])) toast.error(message);
    },
    message: (field: string) => (refusal && refusal.values[field] === values[field] ? refusal.messages[field] : undefined),
    /**
     * Checks a save's input with the procedure's own schema before sending it: false (and the messages
     * shown, under the form's fields or, for anything else, in a toast) when it would be refused.
     */
    passes(schema: z.ZodType, input: unknown, formFields: readonly string[]): boolean {
      const checked = schema.safeParse(input);
      if (checked.success) return true;
      const fields = issuesByField(checked.error);
      refuse(fields);
      const elsewhere = Object.entries(fields).find(([field]) => !formFields.includes(field));
      if (elsewhere?.[1]) toast.error(elsewhere[1]);
      return false;
    },
  };
}

/** The first message per field of a schema's refusal. */
function issuesByField(error: z.ZodError): Record<string, string | undefined> {
  const fields: Record<string, string | undefined> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    fields[field] ??= issue.message;
  }
  return fields;
}

/** The first message of a value the schema refuses. */
export const firstIssue = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;
