// Pending invitations of an organization, newest first, each with Cancel. They join by accepting the
// emailed link; an invitation nobody wants any more is cancelled here (it would expire in 7 days).
import { MailX } from "lucide-react";
import { toast } from "sonner";
import { ORGANIZATION_ROLE_LABELS } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function OrganizationInvites({ organizationId }: { organizationId: string }) {
  const utils = trpc.useUtils();
  const invites = trpc.organizationInvites.listPending.useQuery({ organizationId });
  const cancel = trpc.organizationInvites.cancel.useMutation({
    async onSuccess() {
      toast.success("Invitation cancelled");
      await utils.organizationInvites.listPending.invalidate({ organizationId });
    },
    onError(error) {
      toast.error("Error cancelling invitation", { description: error.message });
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
          <p role="alert" className="py-4 text-center text-sm text-destructive">
            {invites.error.message}
          </p>
        ) : invites.data.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No pending invitations.</p>
        ) : (
          <Table aria-label="Pending organization invitations">
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Sent</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {invites.data.map((invite) => (
                <TableRow key={invite.id} data-testid="organization-invite-row" data-email={invite.email}>
                  <TableCell className="font-medium">{invite.email}</TableCell>
                  <TableCell>{ORGANIZATION_ROLE_LABELS[invite.role]}</TableCell>
                  <TableCell className="text-muted-foreground">{dateFormat.format(invite.createdAt)}</TableCell>
                  <TableCell className="text-right">
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
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
