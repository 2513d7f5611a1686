// Organizations: the texts and the member schemas shared by the members page and the server.
import { z } from "zod";
import { DEFAULT_ORGANIZATION_MEMBER_ROLE, ORGANIZATION_SLUG_MAX, ORGANIZATION_SLUG_MIN } from "./constants.ts";
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

/**
 * The slug a new organization's name suggests: lower case, accents dropped, anything else than a
 * letter or digit a hyphen (none doubled, none at either end), at most ORGANIZATION_SLUG_MAX
 * characters; "" when that leaves fewer than ORGANIZATION_SLUG_MIN (the slug is optional).
 */
export function slugFromName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, ORGANIZATION_SLUG_MAX)
    .replace(/-+$/, "");
  return slug.length >= ORGANIZATION_SLUG_MIN ? slug : "";
}
