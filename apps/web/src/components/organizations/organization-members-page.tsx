// /organizations/{organizationId}/members (super users; the route's guard sends others to /): the
// organization's members with role changes and removal, a form to invite someone by email, and the
// pending invitations.
import { Link } from "@tanstack/react-router";
import { ArrowLeft, RefreshCw } from "lucide-react";
import { memberCountLabel } from "@promptly/shared";
import { GuardSkeleton } from "@/components/guards/role-guard";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { trpc } from "@/lib/trpc";
import { AddOrganizationMemberForm } from "./add-organization-member-form.tsx";
import { OrganizationInvites } from "./organization-invites.tsx";
import { OrganizationMembersTable } from "./organization-members-table.tsx";

export function OrganizationMembersPage({ organizationId }: { organizationId: string }) {
  const organization = trpc.organizations.get.useQuery({ organizationId });
  const members = trpc.organizationMembers.list.useQuery({ organizationId }, { enabled: organization.isSuccess });

  if (organization.isPending) return <GuardSkeleton />;
  if (organization.isError) {
    if (organization.error.data?.code !== "NOT_FOUND") {
      return <LoadFailure heading="h1" title="The organization could not be loaded" error={organization.error} onRetry={organization.refetch} />;
    }
    return (
      <div className="space-y-4">
        <h1 role="alert" className="text-2xl font-semibold">
          Organization not found
        </h1>
        <Button asChild variant="outline">
          <Link to="/organizations">Back to Organizations</Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button asChild variant="ghost" size="icon" aria-label="Back to Organizations">
          <Link to="/organizations">
            <ArrowLeft aria-hidden="true" />
          </Link>
        </Button>
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
      <OrganizationInvites organizationId={organizationId} />

      <Card>
        <CardHeader>
          <CardTitle>Members</CardTitle>
          <CardDescription>{memberCountLabel(members.data?.length ?? organization.data.memberCount)}</CardDescription>
        </CardHeader>
        <CardContent>
          {members.isPending ? (
            <GuardSkeleton />
          ) : members.isError ? (
            <LoadFailure title="The members could not be loaded" error={members.error} onRetry={members.refetch} />
          ) : (
            <OrganizationMembersTable organizationId={organizationId} members={members.data} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
