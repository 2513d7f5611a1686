// Whether a prompt name is free in a team, asked once the author has stopped typing for a moment.
import { promptNameSchema } from "@promptly/shared";
import { trpc } from "@/lib/trpc";
import { useDebouncedValue } from "@/hooks/use-debounced-value";

const NAME_CHECK_DELAY_MS = 300;

/** "idle": nothing to ask (no team, or a name the schema refuses) or the question failed. */
export type NameCheck = "idle" | "checking" | "available" | "taken";

export function useNameCheck(teamId: string, name: string): NameCheck {
  const settledName = useDebouncedValue(name, NAME_CHECK_DELAY_MS);
  const valid = promptNameSchema.safeParse(name).success;
  const query = trpc.prompts.nameAvailable.useQuery(
    { teamId, name: settledName },
    { enabled: !!teamId && valid && settledName === name },
  );
  if (!teamId || !valid || query.isError) return "idle";
  if (settledName !== name || !query.data) return "checking";
  return query.data.available ? "available" : "taken";
}
