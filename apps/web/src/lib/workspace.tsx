// The active organization and team: restored from the saved ids when still in the lists,
// else the first, else none. Teams reload when the active organization changes.
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from "react";
import type { RouterOutputs } from "@promptly/api";
import { accessOf, can, pageAccessOf, type Access, type OrganizationRole, type TeamRole, type Caller } from "@promptly/shared";
import { readFailure } from "./read-failure.ts";
import { api, trpc } from "./trpc.ts";

type OrganizationListItem = RouterOutputs["organizations"]["list"][number];
type TeamListItem = RouterOutputs["teams"]["list"][number];

export const ACTIVE_ORGANIZATION_KEY = "promptly.activeOrganizationId";
export const ACTIVE_TEAM_KEY = "promptly.activeTeamId";

const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}
function writeStored(key: string, value: string | null) {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  for (const listener of listeners) listener();
}
function useStored(key: string) {
  return useSyncExternalStore(subscribe, () => localStorage.getItem(key), () => null);
}

/** Makes an organization (and one of its teams) the active one, e.g. from a notification's link. */
export function chooseWorkspace(organizationId: string, teamId?: string) {
  writeStored(ACTIVE_ORGANIZATION_KEY, organizationId);
  if (teamId) writeStored(ACTIVE_TEAM_KEY, teamId);
}

/** Sign-out clears the saved active team; the query cache is cleared by the caller. */
export function clearWorkspaceSelection() {
  writeStored(ACTIVE_TEAM_KEY, null);
}

export interface Workspace {
  organizations: OrganizationListItem[];
  /** Loading for the first time, nothing failed yet. */
  organizationsLoading: boolean;
  /** The list failed and there is none to show: from its first failed attempt, while it is retried. */
  organizationsError: boolean;
  /** The failed request (to word the failure), or null. */
  organizationsFailure: unknown;
  /** While the failed list is asked again: the retry under way (see readFailure), else null. */
  organizationsRetrying: number | null;
  retryOrganizations(): Promise<unknown>;
  activeOrganization: OrganizationListItem | null;
  setActiveOrganizationId(id: string): void;
  teams: TeamListItem[];
  /** The teams are not known yet: the organizations, or then the active organization's teams, are loading. */
  teamsLoading: boolean;
  /** The active organization's teams could not be loaded (not the same as having none). */
  teamsError: boolean;
  teamsFailure: unknown;
  teamsRetrying: number | null;
  retryTeams(): Promise<unknown>;
  activeTeam: TeamListItem | null;
  setActiveTeamId(id: string): void;
}

/**
 * The signed-in person's Access (for `can`, the same table the server asks) in an organization and
 * optionally one of its teams, from the roles the lists carry.
 */
export function accessIn(
  caller: Caller | null | undefined,
  organization: { myRole: OrganizationRole | null } | null | undefined,
  team?: { myRole: TeamRole | null } | null,
): Access | null {
  if (!caller) return null;
  return accessOf(caller, { organizationRole: organization?.myRole ?? null, teamRole: team?.myRole ?? null });
}

/**
 * What the pages of the main area ask (`page.*`, `teams.menu`): the signed-in person's app role, role in
 * the active organization and strongest role in its teams, as the lists carry them.
 */
export function usePageAccess(caller: Caller | null | undefined): Access | null {
  const { activeOrganization, teams } = useWorkspace();
  return pageAccessOf(caller, activeOrganization, teams);
}

const WorkspaceContext = createContext<Workspace | null>(null);

/** Picks the saved item when it is still in the list, else the first, else none. */
function pickActive<T extends { id: string }>(items: readonly T[] | undefined, savedId: string | null): T | null {
  if (!items?.length) return null;
  return items.find((item) => item.id === savedId) ?? items[0] ?? null;
}

/** Where the page is: the active organization and its active team, as the header will show them. */
export interface Place {
  organization: OrganizationListItem | null;
  team: TeamListItem | null;
}

/**
 * For route loaders: the organizations, the active organization's teams and, with `teamDetails`, the
 * active team's members and (for its admins) pending invitations, read into the query cache before
 * the page renders. Answers the active organization and team, for a page's own reads. Failures are
 * left to the screens, which show them (and retry) themselves.
 */
export async function loadWorkspace(options: { teamDetails?: boolean } = {}): Promise<Place> {
  const once = { retry: false } as const;
  // The saved organization's teams are asked for with the organizations, in the same batched request:
  // one round trip instead of two when it is still the active one (almost always). When it is not
  // (left, deleted), that answer is not used and the active one's teams are read after.
  const savedOrganizationId = localStorage.getItem(ACTIVE_ORGANIZATION_KEY);
  const readTeams = (organizationId: string) => api.teams.list.ensureData({ organizationId }, once).catch(() => undefined);
  const savedTeams = savedOrganizationId ? readTeams(savedOrganizationId) : undefined;
  const organizations = await api.organizations.list.ensureData(undefined, once).catch(() => undefined);
  const organization = pickActive(organizations, savedOrganizationId);
  if (!organization) return { organization: null, team: null };
  const teams = await (organization.id === savedOrganizationId ? savedTeams : readTeams(organization.id));
  const team = pickActive(teams, localStorage.getItem(ACTIVE_TEAM_KEY));
  if (!options.teamDetails || !team) return { organization, team };
  const me = await api.auth.me.ensureData();
  const isTeamAdmin = can(accessIn(me, organization, team), "team.members.manage");
  await Promise.all([
    api.teamMembers.list.ensureData({ teamId: team.id }, once),
    isTeamAdmin ? api.invites.listPending.ensureData({ teamId: team.id }, once) : null,
  ]).catch(() => undefined);
  return { organization, team };
}

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const organizationsQuery = trpc.organizations.list.useQuery();
  const savedOrganizationId = useStored(ACTIVE_ORGANIZATION_KEY);
  const activeOrganization = pickActive(organizationsQuery.data, savedOrganizationId);

  const teamsQuery = trpc.teams.list.useQuery(
    { organizationId: activeOrganization?.id },
    { enabled: !!activeOrganization },
  );
  const savedTeamId = useStored(ACTIVE_TEAM_KEY);
  const teams = activeOrganization ? (teamsQuery.data ?? []) : [];
  const activeTeam = pickActive(teams, savedTeamId);

  const setActiveOrganizationId = useCallback((id: string) => writeStored(ACTIVE_ORGANIZATION_KEY, id), []);
  const setActiveTeamId = useCallback((id: string) => writeStored(ACTIVE_TEAM_KEY, id), []);
  const { refetch: refetchOrganizations } = organizationsQuery;
  const { refetch: refetchTeams } = teamsQuery;
  // Try again asks at once: a read still waiting for its next automatic retry is cancelled, not waited for.
  const retryOrganizations = useCallback(async () => {
    await api.organizations.list.cancel();
    return refetchOrganizations();
  }, [refetchOrganizations]);
  const activeOrganizationId = activeOrganization?.id;
  const retryTeams = useCallback(async () => {
    if (activeOrganizationId) await api.teams.list.cancel({ organizationId: activeOrganizationId });
    return refetchTeams();
  }, [refetchTeams, activeOrganizationId]);
  // A failure only counts while there is nothing to show (a failed background refresh keeps the list),
  // and counts from the first failed attempt: the retries never pass for loading or for an empty list.
  const organizationsFailed = readFailure(organizationsQuery);
  const teamsFailed = activeOrganization ? readFailure(teamsQuery) : null;
  const organizationsError = organizationsFailed !== null;
  const teamsError = teamsFailed !== null;
  const organizationsLoading = organizationsQuery.isLoading && !organizationsError;

  const value = useMemo<Workspace>(
    () => ({
      organizations: organizationsQuery.data ?? [],
      organizationsLoading,
      organizationsError,
      organizationsFailure: organizationsFailed?.error ?? null,
      organizationsRetrying: organizationsFailed?.retrying ?? null,
      retryOrganizations,
      activeOrganization,
      setActiveOrganizationId,
      teams,
      teamsLoading: organizationsLoading || (!!activeOrganization && teamsQuery.isLoading && !teamsError),
      teamsError,
      teamsFailure: teamsFailed?.error ?? null,
      teamsRetrying: teamsFailed?.retrying ?? null,
      retryTeams,
      activeTeam,
      setActiveTeamId,
    }),
    [
      organizationsQuery.data, organizationsLoading, organizationsError, organizationsFailed?.error, organizationsFailed?.retrying, retryOrganizations, activeOrganization,
      teams, teamsQuery.isLoading, teamsError, teamsFailed?.error, teamsFailed?.retrying, retryTeams, activeTeam, setActiveOrganizationId, setActiveTeamId,
    ],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("useWorkspace must be used inside <WorkspaceProvider>");
  return workspace;
}
