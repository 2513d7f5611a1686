// Types of the organizations screens, inferred from the server's router (never written by hand).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@promptly/api";

type Outputs = inferRouterOutputs<AppRouter>;
export type OrganizationListItem = Outputs["organizations"]["list"][number];
export type CreatedOrganization = Outputs["organizations"]["create"];
export type OrganizationDetails = Outputs["organizations"]["get"];
export type OrganizationMember = Outputs["organizationMembers"]["list"][number];

/** The first message per field of a BAD_REQUEST from the server (the formatter sends zod's flattened issues). */
export function serverFieldErrors(error: { data?: unknown }): Record<string, string | undefined> {
  const zodError = (error.data as { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null } | undefined)?.zodError;
  const result: Record<string, string | undefined> = {};
  for (const [field, messages] of Object.entries(zodError?.fieldErrors ?? {})) result[field] = messages?.[0];
  return result;
}

/** An organization admin can never leave an organization without an admin: the last one is locked. */
export const isLastOrganizationAdmin = (member: { role: string }, members: readonly { role: string }[]) =>
  member.role === "admin" && members.filter((m) => m.role === "admin").length === 1;

export const ORGANIZATION_ROLE_LABELS = { admin: "Admin", member: "Member" } as const;
