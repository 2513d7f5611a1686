// The organization switcher in the header: a searchable list with a check mark on the active
// organization; super users also get 'Create New Organization' and 'Manage Organizations'. The header
// decides whether it is shown (more than one organization, or a super user). Slugs tell organizations
// of one name apart: under each name in the list, and with the active one's name in its tooltip.
import { useState } from "react";
import { useMatches, useNavigate } from "@tanstack/react-router";
import { Building2, Plus, RefreshCw, Settings } from "lucide-react";
import { ORGANIZATION_MSG, can } from "@promptly/shared";
import { SearchableSwitcher, type SwitcherAction } from "@/components/layout/searchable-switcher";
import { useMe } from "@/hooks/use-me";
import { useWorkspace, accessIn } from "@/lib/workspace";
import { useErrorToast } from "@/hooks/use-error-toast";
import { CreateOrganizationDialog } from "./create-organization-dialog.tsx";

/**
 * 'Error loading organizations' once per failure of the organization list, for everyone whose header
 * loads it (with or without a switcher), unless the page shows that failure itself: one message per failure.
 */
export function useOrganizationsLoadErrorToast() {
  const { organizationsError } = useWorkspace();
  const shownByPage = useMatches({ select: (matches) => matches.some((match) => match.staticData.showsOrganizationsFailure) });
  useErrorToast(organizationsError && !shownByPage, "organizations-load-error", ORGANIZATION_MSG.loadErrorTitle, ORGANIZATION_MSG.loadErrorDescription);
}

export function OrganizationSwitcher() {
  const { data: me } = useMe();
  const { organizations, organizationsLoading, organizationsError, retryOrganizations, activeOrganization, setActiveOrganizationId } = useWorkspace();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  const access = accessIn(me, activeOrganization);
  const actions: SwitcherAction[] = [];
  if (can(access, "organization.create")) {
    actions.push({ value: "create-new-organization", label: "Create New Organization", icon: Plus, onSelect: () => setCreating(true) });
  }
  if (can(access, "page.organizations")) {
    actions.push({ value: "manage-organizations", label: "Manage Organizations", icon: Settings, onSelect: () => void navigate({ to: "/organizations" }) });
  }
  if (organizationsError) {
    actions.unshift({ value: "retry-organizations", label: "Try loading organizations again", icon: RefreshCw, onSelect: () => void retryOrganizations() });
  }
  // A failed list is not "No organizations": the person may well have some.
  const label = organizationsLoading ? "Loading..." : organizationsError ? "Organizations unavailable" : (activeOrganization?.name ?? "No organizations");

  return (
    <>
      <SearchableSwitcher
        testId="organization-switcher"
        icon={Building2}
        kind="Organization"
        label={label}
        labelDetail={activeOrganization?.slug ?? undefined}
        searchPlaceholder="Search organizations..."
        emptyText="No organization found."
        heading="Organizations"
        items={organizations.map((o) => ({ id: o.id, name: o.name, detail: o.slug ?? undefined, keywords: [o.name, o.slug ?? ""] }))}
        activeId={activeOrganization?.id ?? null}
        onSelectItem={setActiveOrganizationId}
        actions={actions}
        contentClassName="w-72"
      />
      <CreateOrganizationDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(organization) => setActiveOrganizationId(organization.id)}
      />
    </>
  );
}
