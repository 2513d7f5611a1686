// How app roles read in the interface (user menu badge, sidebar footer).
import type { AppRole } from "@promptly/shared";

export const APP_ROLE_LABELS: Record<AppRole, string> = {
  administrator: "Administrator",
  team_lead: "Team Lead",
  user: "User",
  "super-user": "Super User",
};
