// Types of the organizations screens, inferred from the server's router (never written by hand).
import type { RouterOutputs } from "@promptly/api";

export type OrganizationListItem = RouterOutputs["organizations"]["list"][number];
export type CreatedOrganization = RouterOutputs["organizations"]["create"];
export type OrganizationMember = RouterOutputs["organizationMembers"]["list"][number];

