// The team selector of spec 2 in the header: 'Loading teams...' while loading or without an active
// organization, else the active team or 'No teams'. A searchable list in a popover (about 13rem wide,
// at most 300 px high); 'Create New Team' for administrators, organization admins and super users;
// 'Manage Teams' (/teams) for those plus team leads.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Check, ChevronsUpDown, Plus, Settings, Users } from "lucide-react";
import { canCreateTeams, canManageTeams } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator } from "@/components/ui/command";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { useMe, viewerOf } from "@/hooks/use-me";
import { cn } from "@/lib/utils";
import { useWorkspace } from "@/lib/workspace";
import { CreateTeamDialog } from "./create-team-dialog.tsx";

/** Items match on the team's name, anywhere in it, ignoring case. */
function matchTeam(_value: string, search: string, keywords?: string[]) {
  const needle = search.trim().toLowerCase();
  if (!needle) return 1;
  return (keywords ?? []).some((keyword) => keyword.toLowerCase().includes(needle)) ? 1 : 0;
}

export function TeamSelector() {
  const { data: me } = useMe();
  const { teams, teamsLoading, activeOrganization, activeTeam, setActiveTeamId, isOrgAdmin } = useWorkspace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);

  const viewer = viewerOf(me);
  const mayCreate = canCreateTeams(viewer, isOrgAdmin);
  const mayManage = canManageTeams(viewer, isOrgAdmin);
  const loading = teamsLoading || !activeOrganization;
  const label = loading ? "Loading teams..." : (activeTeam?.name ?? "No teams");

  return (
    <>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            role="combobox"
            aria-expanded={open}
            aria-haspopup="listbox"
            data-testid="team-selector"
            className="w-40 justify-between md:w-52"
          >
            <Users aria-hidden="true" className="text-muted-foreground" />
            <span className="sr-only">Team: </span>
            <span className="flex-1 truncate text-left">{label}</span>
            <ChevronsUpDown aria-hidden="true" className="opacity-50" />
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-52 p-0" align="start">
          <Command filter={matchTeam}>
            <CommandInput placeholder="Search teams..." aria-label="Search teams" />
            <CommandList className="max-h-[300px]">
              <CommandEmpty>No team found.</CommandEmpty>
              {teams.length > 0 && (
                <CommandGroup heading="Teams">
                  {teams.map((team) => {
                    const active = team.id === activeTeam?.id;
                    return (
                      <CommandItem
                        key={team.id}
                        value={team.id}
                        keywords={[team.name]}
                        aria-current={active ? "true" : undefined}
                        onSelect={() => {
                          setActiveTeamId(team.id);
                          setOpen(false);
                        }}
                      >
                        <span className="truncate">{team.name}</span>
                        <Check aria-hidden="true" className={cn("ml-auto", active ? "opacity-100" : "opacity-0")} />
                      </CommandItem>
                    );
                  })}
                </CommandGroup>
              )}
              {(mayCreate || mayManage) && (
                <>
                  <CommandSeparator />
                  {/* forceMount: the actions stay reachable whatever the search says. */}
                  <CommandGroup forceMount>
                    {mayCreate && (
                      <CommandItem
                        forceMount
                        value="create-new-team"
                        onSelect={() => {
                          setOpen(false);
                          setCreating(true);
                        }}
                      >
                        <Plus aria-hidden="true" />
                        Create New Team
                      </CommandItem>
                    )}
                    {mayManage && (
                      <CommandItem
                        forceMount
                        value="manage-teams"
                        onSelect={() => {
                          setOpen(false);
                          void navigate({ to: "/teams" });
                        }}
                      >
                        <Settings aria-hidden="true" />
                        Manage Teams
                      </CommandItem>
                    )}
                  </CommandGroup>
                </>
              )}
            </CommandList>
          </Command>
        </PopoverContent>
      </Popover>
      <CreateTeamDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
