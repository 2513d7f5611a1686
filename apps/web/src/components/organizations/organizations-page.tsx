// /organizations (super users): every organization with its slug, member count and creation date,
// and the actions to create, rename, delete and open its members.
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { Building2, MoreHorizontal, Pencil, Plus, RefreshCw, Trash2, Users } from "lucide-react";
import { memberCountLabel } from "@promptly/shared";
import { OrganizationsLoadFailure } from "@/components/layout/workspace-gate";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import { formatDate } from "@/lib/dates";
import { useWorkspace } from "@/lib/workspace";
import { CreateOrganizationDialog } from "./create-organization-dialog.tsx";
import { DeleteOrganizationDialog } from "./delete-organization-dialog.tsx";
import { EditOrganizationDialog } from "./edit-organization-dialog.tsx";
import type { OrganizationListItem } from "./organization-types.ts";


export function OrganizationsPage() {
  const organizations = trpc.organizations.list.useQuery();
  const { setActiveOrganizationId } = useWorkspace();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<OrganizationListItem | null>(null);
  const [deleting, setDeleting] = useState<OrganizationListItem | null>(null);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        {/* The title keeps a readable width; on a phone the buttons wrap below it. */}
        <div className="min-w-0 flex-1 basis-60">
          <h1 className="text-2xl font-bold tracking-tight">Organizations</h1>
          <p className="text-sm text-muted-foreground">Every organization of this installation, with its members.</p>
        </div>
        <Button variant="outline" size="icon" aria-label="Refresh organizations" onClick={() => void organizations.refetch()} disabled={organizations.isFetching}>
          <RefreshCw aria-hidden="true" className={organizations.isFetching ? "animate-spin" : undefined} />
        </Button>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          New Organization
        </Button>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>All organizations</CardTitle>
          <CardDescription>
            {organizations.data
              ? `${organizations.data.length} ${organizations.data.length === 1 ? "organization" : "organizations"}`
              : organizations.isError
                ? "Not loaded"
                : "Loading..."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {organizations.isPending ? (
            <SkeletonRows label="Loading organizations" />
          ) : organizations.isError ? (
            <OrganizationsLoadFailure error={organizations.error} onRetry={organizations.refetch} />
          ) : organizations.data.length === 0 ? (
            <div className="flex flex-col items-center gap-3 py-10 text-center">
              <Building2 aria-hidden="true" className="size-10 text-muted-foreground" />
              <p className="font-medium">No Organizations Created Yet</p>
              <Button onClick={() => setCreating(true)}>Create First Organization</Button>
            </div>
          ) : (
            <Table aria-label="Organizations">
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Slug</TableHead>
                  <TableHead>Members</TableHead>
                  <TableHead>Created</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {organizations.data.map((organization) => (
                  <TableRow key={organization.id} data-testid="organization-row">
                    <TableCell className="max-w-64 min-w-40 font-medium whitespace-normal wrap-anywhere">{organization.name}</TableCell>
                    <TableCell className="text-muted-foreground">{organization.slug ?? "—"}</TableCell>
                    <TableCell>{memberCountLabel(organization.memberCount)}</TableCell>
                    <TableCell>{formatDate(organization.createdAt)}</TableCell>
                    <TableCell className="text-right">
                      <div className="flex items-center justify-end gap-1">
                        <Button asChild variant="ghost" size="sm">
                          <Link
                            to="/organizations/$organizationId/members"
                            params={{ organizationId: organization.id }}
                            aria-label={`Members of ${organization.name}`}
                          >
                            <Users aria-hidden="true" />
                            Members
                          </Link>
                        </Button>
                        <DropdownMenu>
                          <DropdownMenuTrigger asChild>
                            <Button variant="ghost" size="icon" aria-label={`Actions for ${organization.name}`}>
                              <MoreHorizontal aria-hidden="true" />
                            </Button>
                          </DropdownMenuTrigger>
                          <DropdownMenuContent align="end">
                            <DropdownMenuItem onSelect={() => setActiveOrganizationId(organization.id)}>
                              <Building2 aria-hidden="true" />
                              Switch to
                            </DropdownMenuItem>
                            <DropdownMenuItem onSelect={() => setEditing(organization)}>
                              <Pencil aria-hidden="true" />
                              Rename
                            </DropdownMenuItem>
                            <DropdownMenuSeparator />
                            <DropdownMenuItem variant="destructive" onSelect={() => setDeleting(organization)}>
                              <Trash2 aria-hidden="true" />
                              Delete
                            </DropdownMenuItem>
                          </DropdownMenuContent>
                        </DropdownMenu>
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} />
      <EditOrganizationDialog organization={editing} onOpenChange={(open) => !open && setEditing(null)} />
      <DeleteOrganizationDialog organization={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
    </div>
  );
}
