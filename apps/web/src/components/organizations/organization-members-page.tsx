// /organizations/{organizationId}/members: super users and that organization's admins. Others are sent
// to / like the role guard does; the server refuses them in any case.
import { Link, Navigate } from "@tanstack/react-router";
import { ArrowLeft, RefreshCw } from "lucide-react";
import { memberCountLabel } from "@promptly/shared";
import { GuardSkeleton } from "@/components/guards/role-guard";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { AddOrganizationMemberForm } from "./add-organization-member-form.tsx";
import { OrganizationMembersTable } from "./organization-members-table.tsx";

export function OrganizationMembersPage({ organizationId }: { organizationId: string }) {
  const { data: me } = useMe();
  const organization = trpc.organizations.get.useQuery({ organizationId });
  const isAdmin = !!organization.data?.isAdmin;
  const members = trpc.organizationMembers.list.useQuery({ organizationId }, { enabled: isAdmin });

  if (organization.isPending) return <GuardSkeleton />;
  if (organization.isError || !isAdmin) {
    // A super user reaches every organization: for them a failure means it no longer exists.
    if (me?.isSuperUser) {
      return (
        <div className="space-y-4">
          <p role="alert" className="font-medium">Organization not found</p>
          <Button asChild variant="outline">
            <Link to="/organizations">Back to Organizations</Link>
          </Button>
        </div>
      );
    }
    return <Navigate to="/" replace />;
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        {me?.isSuperUser && (
          <Button asChild variant="ghost" size="icon" aria-label="Back to Organizations">
            <Link to="/organizations">
              <ArrowLeft aria-hidden="true" />
            </Link>
          </Button>
        )}
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-2xl font-bold tracking-tight">{organization.data.name}</h1>
          <p className="text-sm text-muted-foreground">
            Organization members{organization.data.slug ? ` · ${organization.data.slug}` : ""}
          </p>
        </div>
        <Button
          variant="outline"
          size="icon"
          aria-label="Refresh members"
          disabled={members.isFetching}
          onClick={() => void Promise.all([organization.refetch(), members.refetch()])}
        >
          <RefreshCw aria-hidden="true" className={members.isFetching ? "animate-spin" : undefined} />
        </Button>
      </div>

      <AddOrganizationMemberForm organizationId={organizationId} />

      <Card>
        <CardHeader>
          <CardTitle>Members</CardTitle>
          <CardDescription>{memberCountLabel(members.data?.length ?? organization.data.memberCount)}</CardDescription>
        </CardHeader>
        <CardContent>
          {members.isPending ? (
            <GuardSkeleton />
          ) : members.isError ? (
            <p role="alert" className="py-6 text-center text-sm text-destructive">
              {members.error.message}
            </p>
          ) : (
            <OrganizationMembersTable organizationId={organizationId} members={members.data} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
