// Placeholder until the organizations work lands: shows the active organization's name.
import { useWorkspace } from "@/lib/workspace";

export function OrganizationSwitcher() {
  const { activeOrganization, organizationsLoading } = useWorkspace();
  return <span className="text-sm">{organizationsLoading ? "Loading..." : (activeOrganization?.name ?? "No organizations")}</span>;
}
