// The organization switcher of spec 2 in the header: a searchable list with a check mark on the active
// organization; super users also get 'Create New Organization' and 'Manage Organizations'. The header
// decides whether it is shown (more than one organization, or a super user).
import { useEffect, useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Building2, Check, ChevronsUpDown, Plus, Settings } from "lucide-react";
import { toast } from "sonner";
import { ORGANIZATION_TEXT } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator } from "@/components/ui/command";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { useMe } from "@/hooks/use-me";
import { cn } from "@/lib/utils";
import { useWorkspace } from "@/lib/workspace";
import { CreateOrganizationDialog } from "./create-organization-dialog.tsx";

/** Shows 'Error loading organizations' once per failure of the organization list. */
export function useOrganizationsLoadErrorToast() {
  const { organizationsError } = useWorkspace();
  useEffect(() => {
    // A fixed id keeps a double effect (strict mode) from showing two toasts.
    if (organizationsError) {
      toast.error(ORGANIZATION_TEXT.loadErrorTitle, { id: "organizations-load-error", description: ORGANIZATION_TEXT.loadErrorDescription });
    }
  }, [organizationsError]);
}

/** Items match on the organization's name or slug, anywhere in it, ignoring case. */
function matchOrganization(_value: string, search: string, keywords?: string[]) {
  const needle = search.trim().toLowerCase();
  if (!needle) return 1;
  return (keywords ?? []).some((keyword) => keyword.toLowerCase().includes(needle)) ? 1 : 0;
}

export function OrganizationSwitcher() {
  const { data: me } = useMe();
  const { organizations, organizationsLoading, activeOrganization, setActiveOrganizationId } = useWorkspace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  useOrganizationsLoadErrorToast();

  const isSuperUser = !!me?.isSuperUser;
  const label = organizationsLoading ? "Loading..." : (activeOrganization?.name ?? "No organizations");

  return (
    <>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            role="combobox"
            aria-expanded={open}
            data-testid="organization-switcher"
            className="w-40 justify-between md:w-52"
          >
            <Building2 aria-hidden="true" className="text-muted-foreground" />
            <span className="sr-only">Organization: </span>
            <span className="flex-1 truncate text-left">{label}</span>
            <ChevronsUpDown aria-hidden="true" className="opacity-50" />
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-60 p-0" align="start">
          <Command filter={matchOrganization}>
            <CommandInput placeholder="Search organizations..." aria-label="Search organizations" />
            <CommandList>
              <CommandEmpty>No organization found.</CommandEmpty>
              {organizations.length > 0 && (
                <CommandGroup heading="Organizations">
                  {organizations.map((organization) => {
                    const active = organization.id === activeOrganization?.id;
                    return (
                      <CommandItem
                        key={organization.id}
                        value={organization.id}
                        keywords={[organization.name, organization.slug ?? ""]}
                        aria-current={active ? "true" : undefined}
                        onSelect={() => {
                          setActiveOrganizationId(organization.id);
                          setOpen(false);
                        }}
                      >
                        <span className="truncate">{organization.name}</span>
                        <Check aria-hidden="true" className={cn("ml-auto", active ? "opacity-100" : "opacity-0")} />
                      </CommandItem>
                    );
                  })}
                </CommandGroup>
              )}
              {isSuperUser && (
                <>
                  <CommandSeparator />
                  {/* forceMount: the actions stay reachable whatever the search says. */}
                  <CommandGroup forceMount>
                    <CommandItem
                      forceMount
                      value="create-new-organization"
                      onSelect={() => {
                        setOpen(false);
                        setCreating(true);
                      }}
                    >
                      <Plus aria-hidden="true" />
                      Create New Organization
                    </CommandItem>
                    <CommandItem
                      forceMount
                      value="manage-organizations"
                      onSelect={() => {
                        setOpen(false);
                        void navigate({ to: "/organizations" });
                      }}
                    >
                      <Settings aria-hidden="true" />
                      Manage Organizations
                    </CommandItem>
                  </CommandGroup>
                </>
              )}
            </CommandList>
          </Command>
        </PopoverContent>
      </Popover>
      <CreateOrganizationDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(organization) => setActiveOrganizationId(organization.id)}
      />
    </>
  );
}
