// Answers to the two largest lists a page asks for (teams.list, teamMembers.list) written by
// PostgreSQL as JSON text, for the host's single-query fast path: the data the procedure would return,
// serialised as the transformer writes it (serializeToJsonText's text), without the rows ever reaching
// JavaScript. Each one decides who may read exactly as its procedure does, with the same functions
// and statements (signedInDecision, resolveCaller, the visibility rule, teamAccessSql and the one
// decision); whenever the procedure would answer anything but the list (no session, a key, a second
// factor still to give, a bad input, a team the caller may not read, a test fault), it answers null and
// the host calls the procedure, which then gives its own error. Equal answers are proved by
// apps/server/src/fast-paths/direct-answers.integration.test.ts.
import type { Context } from "./context.ts";
import type { Caller } from "./services/access/access.ts";
import { resolveCaller } from "./services/access/access.ts";
import { authorize } from "./services/access/authorize.ts";
import { listTeamsJson, teamListDates } from "./services/organizations/teams.ts";
import { listTeamMembersJson, teamMemberDates } from "./services/organizations/members.ts";
import { listJsonText } from "./transformer.ts";
import { signedInDecision } from "./procedures.ts";
import { list as teamsList } from "./routers/teams/list.ts";
import { list as teamMembersList } from "./routers/team-members/list.ts";

/** The data of a query's answer as JSON text in parts (their concatenation), or null to have the procedure answer. */
export type DirectAnswer = (ctx: Context, input: unknown) => Promise<string[] | null>;

/**
 * The fully signed-in person protectedProcedure and callerProcedure admit (their one decision,
 * signedInDecision), with their app role; null for any caller they refuse, for a person without a
 * stored app role (the procedure stores it), and for a request with test faults (the procedure fails it).
 */
async function signedInCaller(ctx: Context): Promise<Caller | null> {
  if (ctx.req.failing?.size) return null;
  const decision = signedInDecision(ctx.principal);
  if (typeof decision === "string" || !decision.user.appRole) return null;
  const { userId, role, isSuperUser } = await resolveCaller(ctx.db, decision.user);
  return { userId, role, isSuperUser };
}

/** The procedure's own input schema's parse of `input`, or null where it refuses it. */
function parsedInput<T>(procedure: { _def: { inputs: unknown[] } }, input: unknown): { data: T } | null {
  const [schema, ...more] = procedure._def.inputs as { safeParse(value: unknown): { success: boolean; data?: unknown } }[];
  if (!schema || more.length) return null;
  const parsed = schema.safeParse(input);
  return parsed.success ? { data: parsed.data as T } : null;
}

export const directAnswers: Readonly<Record<string, DirectAnswer>> = {
  async "teams.list"(ctx, input) {
    const parsed = parsedInput<{ organizationId?: string } | undefined>(teamsList, input);
    const caller = parsed && (await signedInCaller(ctx));
    if (!caller) return null;
    return listJsonText(await listTeamsJson(ctx.db, caller, parsed.data?.organizationId), teamListDates);
  },
  async "teamMembers.list"(ctx, input) {
    const parsed = parsedInput<{ teamId: string }>(teamMembersList, input);
    const caller = parsed && (await signedInCaller(ctx));
    if (!caller) return null;
    // teamReadProcedure's decision on the access the statement loaded with the members.
    const { access, result } = await listTeamMembersJson(ctx.db, caller, parsed.data.teamId, "team.read");
    if (!authorize(caller, "team.read", { place: access }).ok) return null;
    return listJsonText(result, teamMemberDates);
  },
};
