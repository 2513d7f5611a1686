// The audit trail: the actions it records, in the words the audit log's filter shows, and
// the inputs of auditLog.list / auditLog.forPrompt.
import { z } from "zod";
import { idSchema } from "./validation.ts";

/** Every audited action and how the audit log names it. */
export const AUDIT_ACTION_LABELS = {
  "organization.create": "Organization created",
  "organization.rename": "Organization renamed",
  "organization.delete": "Organization deleted",
  "organization.settings": "Organization settings changed",
  "team.create": "Team created",
  "team.rename": "Team renamed",
  "team.delete": "Team deleted",
  "team.settings": "Team settings changed",
  "member.add": "Member added",
  "member.remove": "Member removed",
  "member.role": "Member role changed",
  "invite.create": "Invitation sent",
  "invite.revoke": "Invitation revoked",
  "invite.accept": "Invitation accepted",
  "prompt.create": "Prompt created",
  "prompt.rename": "Prompt renamed",
  "prompt.update": "Prompt details changed",
  "prompt.archive": "Prompt archived",
  "prompt.restore": "Prompt restored",
  "prompt.delete": "Prompt deleted",
  "prompt.version": "Version saved",
  "prompt.version.delete": "Versions deleted",
  "prompt.label.set": "Label moved",
  "prompt.label.rolled_back": "Production rolled back",
  "prompt.label.remove": "Label removed",
  "prompt.test_case.create": "Test case added",
  "prompt.test_case.update": "Test case changed",
  "prompt.test_case.delete": "Test case removed",
  "prompt.test_case.import": "Test cases imported",
  "change_request.create": "Review requested",
  "change_request.approve": "Change request approved",
  "change_request.reject": "Change request rejected",
  "api_key.create": "API key created",
  "api_key.revoke": "API key revoked",
  "webhook.create": "Webhook added",
  "webhook.update": "Webhook changed",
  "webhook.delete": "Webhook removed",
  "provider.create": "Provider connection added",
  "provider.update": "Provider connection changed",
  "provider.delete": "Provider connection removed",
  "provider.default": "Default connection chosen",
  "model_price.set": "Model price set",
  "two_factor.enable": "Two-factor turned on",
  "two_factor.disable": "Two-factor turned off",
  "super_user.grant": "Super user granted",
  "super_user.revoke": "Super user revoked",
  "user.app_role": "App role changed",
  "ingestion.retry": "Set-aside production signals put back",
} as const satisfies Record<string, string>;

/** The audit log's page size. */
export const AUDIT_PAGE_SIZE = 50;

/** `auditLog.list`: an organization's events, newest first; `cursor` is the last row's id of the page before. */
export const auditLogListInput = z.object({
  organizationId: idSchema,
  actorId: idSchema.optional(),
  action: z.string().max(64).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  cursor: idSchema.optional(),
  /** How many rows (the CSV download asks for more at a time). */
  limit: z.number().int().min(1).max(500).optional(),
});
export type AuditLogListInput = z.infer<typeof auditLogListInput>;

/** `auditLog.forPrompt`: a prompt's activity, newest first, AUDIT_PAGE_SIZE a page; `cursor` is the last row's id of the page before. */
export const promptActivityInput = z.object({ promptId: idSchema, cursor: idSchema.optional() });
