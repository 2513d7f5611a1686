// Types of the organizations screens, inferred from the server's router (never written by hand).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@promptly/api";

type Outputs = inferRouterOutputs<AppRouter>;
export type OrganizationListItem = Outputs["organizations"]["list"][number];
export type CreatedOrganization = Outputs["organizations"]["create"];
export type OrganizationMember = Outputs["organizationMembers"]["list"][number];

