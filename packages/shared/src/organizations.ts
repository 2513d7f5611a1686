// Organizations: the texts and the member schemas shared by the members page and the server.
import { z } from "zod";
import { DEFAULT_ORGANIZATION_MEMBER_ROLE } from "./constants.ts";
import { emailSchema, organizationRoleSchema } from "./validation.ts";

export const ORGANIZATION_MSG = {
  createdTitle: "Organization created",
  createdDescription: (name: string) => `The organization "${name}" has been created successfully.`,
  createErrorTitle: "Error creating organization",
  createErrorFallback: "Something went wrong. Please try again.",
  permissionDeniedTitle: "Permission denied",
  loadErrorTitle: "Error loading organizations",
  loadErrorDescription: "Could not load your organizations. Please try again later.",
  /** An organization must keep at least one admin (the last admin can be neither demoted nor removed). */
  lastAdminRequired: "An organization must keep at least one admin.",
  /** Delete or update of an organization that does not exist (or is no longer there). */
  organizationNotFound: "Organization not found",
  memberNotFound: "Member not found",
} as const;

export const ORGANIZATION_ROLE_LABELS = { admin: "Admin", member: "Member" } as const;

/** The add-member form of /organizations/{id}/members; the procedure adds `organizationId`. */
export const addOrganizationMemberForm = z.object({
  email: emailSchema,
  role: organizationRoleSchema.default(DEFAULT_ORGANIZATION_MEMBER_ROLE),
});
