// Pending invitations of an organization, newest first, each with Cancel. They join by accepting the
// emailed link; an invitation nobody wants any more is cancelled here (it would expire in 7 days).
import { MailX } from "lucide-react";
import { toast } from "sonner";
import { ORGANIZATION_ROLE_LABELS, TEAM_MSG } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { InviteTable } from "@/components/members/invite-table";
import { trpc } from "@/lib/trpc";

export function OrganizationInvites({ organizationId }: { organizationId: string }) {
  const utils = trpc.useUtils();
  const invites = trpc.organizationInvites.listPending.useQuery({ organizationId });
  const cancel = trpc.organizationInvites.cancel.useMutation({
    async onSuccess() {
      toast.success("Invitation cancelled");
      await utils.organizationInvites.listPending.invalidate({ organizationId });
    },
    onError(error) {
      toast.error(TEAM_MSG.failedToCancelInvite, { description: error.message });
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending invitations</CardTitle>
        <CardDescription>People invited to this organization who have not accepted yet.</CardDescription>
      </CardHeader>
      <CardContent>
        {invites.isPending ? null : invites.isError ? (
          <LoadFailure title="The invitations could not be loaded" error={invites.error} onRetry={invites.refetch} />
        ) : (
          <InviteTable
            label="Pending organization invitations"
            rowTestId="organization-invite-row"
            invites={invites.data}
            labels={ORGANIZATION_ROLE_LABELS}
            actions={(invite) => (
              <Button
                variant="ghost"
                size="sm"
                disabled={cancel.isPending && cancel.variables?.id === invite.id}
                aria-label={`Cancel invitation to ${invite.email}`}
                onClick={() => cancel.mutate({ id: invite.id })}
              >
                <MailX aria-hidden="true" />
                Cancel
              </Button>
            )}
          />
        )}
      </CardContent>
    </Card>
  );
}
