// Procedure builders: the action a procedure performs is named where the router wires it, and the
// permission table of packages/shared (`can`) decides who may. Handlers never compare roles. The
// builders read the caller from ctx.principal: a signed-in person, or (where a builder admits them)
// a team's API key acting as a viewer or editor of its team.
import { z } from "zod";
import { API_KEY_MSG, MSG, SIGN_IN_MESSAGES, accessOf, idSchema, promptLabelSchema, type Access, type Action, type PromptAbility } from "@promptly/shared";
import type { DbOrTx } from "@promptly/db";
import type { User } from "lucia";
import { baseProcedure, middleware } from "./trpc.ts";
import type { Context } from "./context.ts";
import type { Principal } from "./principal.ts";
import { findProviderConnectionOrganizationId } from "./services/models/connections.ts";
import { loadOrganizationAccess, loadTeamAccess, resolveCaller, type Caller, type OrganizationDecision, type TeamRead } from "./services/access/access.ts";
import { allowOrFail, authorize, promptAction, type Decision, type Resource } from "./services/access/authorize.ts";
import { DomainError } from "./errors.ts";
import { findMemberOrganizationId } from "./services/organizations/organizations.ts";
import { findTeamMemberTeamId } from "./services/organizations/teams.ts";
import { findInviteTeamId } from "./services/organizations/team-invites.ts";
import { findOrganizationInviteOrganizationId } from "./services/organizations/organization-invites.ts";
import { findApiKeyTeamId } from "./services/identity/api-keys.ts";
import { findWebhookDeliveryTeamId, findWebhookTeamId } from "./services/webhooks/subscriptions.ts";
import { loadPrompt, type LoadedPrompt, type PromptDecision } from "./services/prompts/loaded-prompt.ts";
import { findCommentPromptId } from "./services/reviews/comments.ts";
import { findChangeRequestPromptId } from "./services/reviews/change-requests.ts";
import { findPromptRunPromptId } from "./services/runs/runs.ts";
import { findTestCasePromptId } from "./services/evaluations/test-cases.ts";
import { findEvaluationPromptId } from "./services/evaluations/evaluations.ts";
import type { AuditContext } from "./services/insight/audit.ts";
import type { Actor } from "./services/access/actor.ts";

export const publicProcedure = baseProcedure;

/**
 * For a write to provider connections or to a default connection: once it succeeded, this process's runtime
 * cache forgets the teams' run connections at once. Other processes hear of it from the database trigger
 * (run-connections); without this, a run starting here before that notification came back used the old one.
 */
export const changesRunConnections = middleware(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) ctx.runtime.invalidate("run-connections");
  return result;
});

// Refusals are DomainErrors, answered by tRPC's one adapter (trpc.ts) through the error table.
const unauthorized = (message: string = MSG.userNotAuthenticated) => new DomainError("UNAUTHENTICATED", message);
/** An id that names nothing: the same answer the one decision gives for what the caller may not know of. */
const notFound = () => new DomainError("NOT_FOUND", MSG.notFound);
/** The one decision (services/access/authorize.ts), thrown as the domain error. */
const allow = (decision: Decision): void => allowOrFail(decision);

/** What an API key is told where only a person may act (its own profile, bookmarks, settings, ...). */
const personOnly = () => new DomainError("FORBIDDEN", API_KEY_MSG.personOnly);

/** A signed-in session, even one that still waits for its second factor (the second sign-in step). */
export const sessionProcedure = baseProcedure.use(({ ctx, next }) => {
  if (ctx.principal?.kind === "apiKey") throw personOnly();
  if (ctx.principal?.kind !== "user") throw unauthorized();
  return next({ ctx: { session: ctx.principal.session, user: ctx.principal.user } });
});

/** A request's person who has completed sign-in (both factors where they have two). */
type SignedInPrincipal = Extract<Principal, { kind: "user" }>;
/** Why a caller is not a fully signed-in person: a team's API key, nobody (or a refused key), or a session still waiting for its second factor. */
export type SignInRefusal = "apiKey" | "anonymous" | "secondFactorPending";

/**
 * The one decision on who is a fully signed-in person, without throwing: the principal, or why not.
 * signedInPerson throws its refusal; the tRPC fast path's direct answers leave a refused caller to the
 * procedure, so a condition added here reaches both.
 */
export function signedInDecision(principal: Principal | null): SignedInPrincipal | SignInRefusal {
  if (principal?.kind === "apiKey") return "apiKey";
  if (principal?.kind !== "user") return "anonymous";
  return principal.session.twoFactorVerified ? principal : "secondFactorPending";
}

/** What signedInPerson tells a refused caller (`anonymousMessage`: the builder's words for a visitor). */
function signInRefused(refusal: SignInRefusal, anonymousMessage: string): DomainError {
  if (refusal === "apiKey") return personOnly();
  return unauthorized(refusal === "anonymous" ? anonymousMessage : MSG.twoFactorRequired);
}

/** The fully signed-in person of a request, with their app role, or the refusal for anyone else. */
async function signedInPerson(ctx: Context, anonymousMessage: string) {
  const decision = signedInDecision(ctx.principal);
  if (typeof decision === "string") throw signInRefused(decision, anonymousMessage);
  const { session, user } = decision;
  // The session lookup loaded the profile and role; only a missing role row needs a query.
  const { userId, role, isSuperUser } = await resolveCaller(ctx.db, user);
  const caller: Caller = { userId, role, isSuperUser };
  return { session, user, caller, audit: auditContext(ctx, { kind: "user", userId }) };
}

/** Who the audit trail records for this request's changes, from where, and when. */
const auditContext = (ctx: Context, actor: Actor): AuditContext => ({ actor, ip: ctx.req.ip || null, now: ctx.now() });

/** The caller is a fully signed-in user (or a visitor, when `anonymous` says what to tell them). */
const signedIn = (anonymousMessage: string = MSG.userNotAuthenticated) =>
  baseProcedure.use(async ({ ctx, next }) => next({ ctx: await signedInPerson(ctx, anonymousMessage) }));

/** A fully signed-in user, with the app role resolved once and put on ctx.caller. */
export const protectedProcedure = signedIn();

/** Which callers a builder admits: people only (the default), or team API keys as well. */
interface CallerOptions {
  /**
   * True where a team's API key may call too (the tRPC API for tools): the key then acts as a viewer
   * of its team, an editor with the `write` scope (keyCaller), and `can` decides like for a person.
   * Only procedures that concern the team's prompts say so; what a key bound to labels may do of them
   * is the one decision's (it lists, and fetches only its labels).
   */
  apiKeys?: boolean;
}

/** Also for API keys: the option of the builders below. */
export const KEYS_TOO = { apiKeys: true } as const satisfies CallerOptions;

/**
 * A fully signed-in person, or a team's API key where `options.apiKeys` admits one: ctx.caller is who
 * asks (for `can` and the visibility rule) and ctx.audit who a change is recorded as (its author: nobody for a key).
 */
const callerProcedure = (anonymousMessage: string = MSG.userNotAuthenticated, options: CallerOptions = {}) =>
  baseProcedure.use(async ({ ctx, next }) => {
    const principal = ctx.principal;
    if (principal?.kind === "apiKey") {
      if (!options.apiKeys) throw personOnly();
      const { caller } = principal;
      const audit = auditContext(ctx, { kind: "apiKey", apiKeyId: caller.apiKey.id });
      return next({ ctx: { caller, audit } });
    }
    const { caller, audit } = await signedInPerson(ctx, anonymousMessage);
    return next({ ctx: { caller, audit } });
  });

/** protectedProcedure, answering an anonymous caller with the spec's own words for the action. */
export const signedInProcedure = signedIn;

/**
 * Anonymous callers welcome: ctx.signedInUser is the fully signed-in user, or null for a visitor and
 * for a session still waiting for its second factor (auth.me, invites.get answer them differently).
 */
export const optionalViewerProcedure = baseProcedure.use(({ ctx, next }) => {
  const decision = signedInDecision(ctx.principal);
  const signedInUser: User | null = typeof decision === "string" ? null : decision.user;
  return next({ ctx: { signedInUser } });
});

/** An action that concerns no organization or team (create an organization, manage any of them). */
export const appProcedure = (action: Action) =>
  signedIn(SIGN_IN_MESSAGES[action]).use(({ ctx, next }) => {
    allow(authorize(ctx.caller, action, { place: accessOf(ctx.caller) }));
    return next();
  });

/** Where an input's id leads: the input key that carries it, and how to find the owning organization or team. */
export interface Locator<K extends string> {
  key: K;
  find(db: DbOrTx, id: string): Promise<string | null>;
}
const locator = <K extends string>(key: K, find: Locator<K>["find"] = async (_db, id) => id): Locator<K> => ({ key, find });

/** `{ organizationId }` names the organization. */
export const byOrganizationId = locator("organizationId");
/** `{ id }` is an organization member row's id. */
export const byOrganizationMember = locator("id", findMemberOrganizationId);
/** `{ id }` is a pending organization invitation's id. */
export const byOrganizationInvite = locator("id", findOrganizationInviteOrganizationId);
/** `{ teamId }` names the team. */
export const byTeamId = locator("teamId");
/** `{ id }` is the team's own id. */
export const byTeam = locator("id");
/** `{ id }` is a team member row's id. */
export const byTeamMember = locator("id", findTeamMemberTeamId);
/** `{ id }` is a pending invitation's id. */
export const byTeamInvite = locator("id", findInviteTeamId);
/** `{ id }` is an API key's id. */
export const byApiKey = locator("id", findApiKeyTeamId);
/** `{ id }` is a provider connection's id: the organization that keeps it. */
/** `{ id }` is a webhook subscription's id. */
export const byWebhook = locator("id", findWebhookTeamId);
/** `{ subscriptionId }` is a webhook subscription's id. */
export const byWebhookSubscription = locator("subscriptionId", findWebhookTeamId);
/** `{ deliveryId }` is a webhook delivery's id: its subscription's team. */
export const byWebhookDelivery = locator("deliveryId", findWebhookDeliveryTeamId);
export const byProviderConnection = locator("id", findProviderConnectionOrganizationId);

/** The input object of a locator: its one id key. The procedure adds the rest of its input itself. */
const locatorInput = <K extends string>(found: Locator<K>) => z.object({ [found.key]: idSchema } as Record<K, typeof idSchema>);

/**
 * Asks the one decision what the caller alone decides, then follows the input's id to its
 * organization or team, loads the caller's access there once, and asks again with it: callers who may
 * not know of it (and unknown ids) get NOT_FOUND, those who see it but may not act get FORBIDDEN.
 */
async function accessFor<K extends string, A extends Access>(
  ctx: { db: DbOrTx; caller: Caller },
  input: unknown,
  action: Action,
  found: Locator<K>,
  load: (db: DbOrTx, caller: Caller, id: string) => Promise<A | null>,
): Promise<A> {
  allow(authorize(ctx.caller, action));
  const placeId = await found.find(ctx.db, (input as Record<K, string>)[found.key]);
  return allowed(placeId ? await load(ctx.db, ctx.caller, placeId) : null, action, ctx.caller);
}

/** The builders' answer, by the one decision: NOT_FOUND for who may not know of the place, FORBIDDEN for who may not act there. */
function allowed<A extends Access>(access: A | null, action: Action, caller: Caller): A {
  allow(authorize(caller, action, { place: access }));
  return access!;
}

/** An action on something that belongs to an organization; its access is put on ctx.organization. */
export const organizationResourceProcedure = <K extends string>(action: Action, found: Locator<K>, options?: CallerOptions) =>
  callerProcedure(SIGN_IN_MESSAGES[action], options)
    .input(locatorInput(found))
    .use(async ({ ctx, input, next }) => next({ ctx: { organization: await accessFor(ctx, input, action, found, loadOrganizationAccess) } }));

/**
 * organizationResourceProcedure whose decision the handler's statement carries: the service loads the
 * caller's access in the organization within its own statement (as loadOrganizationAccess would) and
 * applies ctx.decideOrganization, the same decision, before it answers anything. ctx.organizationId is
 * the organization the input names.
 */
export const organizationStatementProcedure = (action: Action, found: Locator<"organizationId">, options?: CallerOptions) =>
  callerProcedure(SIGN_IN_MESSAGES[action], options)
    .input(locatorInput(found))
    .use(async ({ ctx, input, next }) => {
      const organizationId = await found.find(ctx.db, input.organizationId);
      if (!organizationId) throw notFound();
      const decideOrganization: OrganizationDecision = (access) => allowed(access, action, ctx.caller);
      return next({ ctx: { organizationId, decideOrganization } });
    });

/** An action on something that belongs to a team; its access is put on ctx.team. */
export const teamResourceProcedure = <K extends string>(action: Action, found: Locator<K>, options?: CallerOptions) =>
  callerProcedure(SIGN_IN_MESSAGES[action], options)
    .input(locatorInput(found))
    .use(async ({ ctx, input, next }) => next({ ctx: { team: await accessFor(ctx, input, action, found, loadTeamAccess) } }));

/**
 * teamResourceProcedure for a read whose own statement loads the caller's access too (teamAccessSql),
 * one round trip instead of two: the handler gives ctx.team.read the service function, which reads
 * rows only where the action is allowed, and the builder answers from the access it returns, as
 * teamResourceProcedure would have before the handler ran.
 */
export const teamReadProcedure = <K extends string>(action: Action, found: Locator<K>, options?: CallerOptions) =>
  callerProcedure(SIGN_IN_MESSAGES[action], options)
    .input(locatorInput(found))
    .use(async ({ ctx, input, next }) => {
      const teamId = await found.find(ctx.db, (input as Record<K, string>)[found.key]);
      if (!teamId) throw notFound();
      const read = async <Result>(load: (db: DbOrTx, caller: Caller, teamId: string, action: Action) => Promise<TeamRead<Result>>) => {
        const { access, result } = await load(ctx.db, ctx.caller, teamId, action);
        allowed(access, action, ctx.caller);
        return result;
      };
      return next({ ctx: { team: { teamId, read } } });
    });

/** `{ id }` is a prompt's id. */
export const byPrompt = locator("id");
/** `{ promptId }` is a prompt's id. */
export const byPromptId = locator("promptId");
/** `{ id }` is a comment's id: the prompt it is on. */
export const byComment = locator("id", findCommentPromptId);
/** `{ id }` is a change request's id: the prompt it would change. */
export const byChangeRequest = locator("id", findChangeRequestPromptId);
/** `{ id }` is a recorded run's id: the prompt it ran. */
export const byPromptRun = locator("id", findPromptRunPromptId);
/** `{ id }` is a test case's id: the prompt it belongs to. */
export const byTestCase = locator("id", findTestCasePromptId);
/** `{ id }` is an evaluation's id: the prompt it evaluates. */
export const byEvaluation = locator("id", findEvaluationPromptId);

/**
 * The prompt of the input's id, for `ability`: the one decision is asked before the lookup (what the
 * caller alone decides: a read-only key's write, a key moving `production`) and after it: a prompt the
 * caller may not read does not exist for them (NOT_FOUND, never FORBIDDEN); one they read but may not
 * act on is FORBIDDEN (canOnPrompt's rules).
 */
async function promptFor<K extends string>(ctx: { db: DbOrTx; caller: Caller }, input: unknown, ability: PromptAbility, found: Locator<K>, resource: Resource = {}) {
  const action = promptAction(ability);
  allow(authorize(ctx.caller, action, resource));
  const promptId = await found.find(ctx.db, (input as Record<K, string>)[found.key]);
  const prompt = promptId ? await loadPrompt(ctx.db, ctx.caller, promptId) : null;
  allow(authorize(ctx.caller, action, { ...resource, prompt }));
  return prompt!;
}

/** An action on one prompt (or on a thing of a prompt, found through the locator); the prompt, its facts and the caller's access in its team are put on ctx.prompt. */
export const promptProcedure = <K extends "id" | "promptId">(ability: PromptAbility, found: Locator<K>, options?: CallerOptions) =>
  callerProcedure(MSG.userNotAuthenticated, options)
    .input(locatorInput(found))
    .use(async ({ ctx, input, next }) => next({ ctx: { prompt: await promptFor(ctx, input, ability, found) } }));

/** Moving or removing the input's `label` of a prompt: the label is part of the decision (no key moves `production`). */
export const promptLabelProcedure = <K extends "id" | "promptId">(found: Locator<K>, options?: CallerOptions) =>
  callerProcedure(MSG.userNotAuthenticated, options)
    .input(locatorInput(found).extend({ label: promptLabelSchema }))
    .use(async ({ ctx, input, next }) => next({ ctx: { prompt: await promptFor(ctx, input, "write", found, { label: (input as { label: string }).label }) } }));

/** The one decision on a prompt a statement loaded: the prompt when the caller may, else NOT_FOUND (null: may not read it) or FORBIDDEN. */
function decideOnPrompt(caller: Caller, prompt: LoadedPrompt | null, ability: PromptAbility): LoadedPrompt {
  allow(authorize(caller, promptAction(ability), { prompt }));
  return prompt!;
}

/**
 * promptProcedure whose decision the handler's statement carries: the service reads the prompt with the
 * caller's access in its own statement (one round trip, not two) and applies ctx.decidePrompt, the same
 * decision, before it answers anything. ctx.promptId is the prompt the input names. What the caller
 * alone decides is asked first, as promptProcedure does.
 */
export const promptStatementProcedure = <K extends "id" | "promptId">(ability: PromptAbility, found: Locator<K>, options?: CallerOptions) =>
  callerProcedure(MSG.userNotAuthenticated, options)
    .input(locatorInput(found))
    .use(async ({ ctx, input, next }) => {
      allow(authorize(ctx.caller, promptAction(ability), {}));
      const promptId = await found.find(ctx.db, (input as Record<K, string>)[found.key]);
      if (!promptId) throw notFound();
      const decidePrompt: PromptDecision = (prompt) => decideOnPrompt(ctx.caller, prompt, ability);
      return next({ ctx: { promptId, decidePrompt } });
    });
