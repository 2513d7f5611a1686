// The Teams page's Model connection card (team admins): the connection the team's runs use when they
// name none, before the organization's default. "The organization's default" clears the team's own.
import { useId } from "react";
import { toast } from "sonner";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { ConnectionSelect } from "@/components/providers/connection-select";
import { SelectItem } from "@/components/ui/select";
import { trpc } from "@/lib/trpc";

/** Stands for "no team default" in the select (a connection id is a uuid). */
const ORGANIZATION_DEFAULT = "organization";

export function DefaultConnectionCard({ teamId }: { teamId: string }) {
  const fieldId = useId();
  const utils = trpc.useUtils();
  const current = trpc.teams.defaultConnection.useQuery({ id: teamId });
  const update = trpc.teams.setDefaultConnection.useMutation({
    async onSuccess() {
      toast.success("The team's default connection is saved");
      await Promise.all([utils.teams.defaultConnection.invalidate({ id: teamId }), utils.playground.defaultConnection.invalidate()]);
    },
    onError: (error) => toast.error(error.message),
  });
  const connections = current.data?.connections ?? [];
  return (
    <Card data-testid="default-connection-card">
      <CardHeader>
        <CardTitle>Model connection</CardTitle>
        <CardDescription>
          The connection this team's runs use when they name none. Without one, the organization's default; without that, only a connection that passed its test.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <FormField label="Team's default connection" id={fieldId}>
          <ConnectionSelect
            id={fieldId}
            value={current.data?.connectionId ?? ORGANIZATION_DEFAULT}
            disabled={!current.data || update.isPending}
            onValueChange={(next) => update.mutate({ id: teamId, connectionId: next === ORGANIZATION_DEFAULT ? null : next })}
            connections={connections}
            placeholder="Loading…"
            className="w-full sm:w-80"
            before={<SelectItem value={ORGANIZATION_DEFAULT}>The organization's default</SelectItem>}
          />
        </FormField>
      </CardContent>
    </Card>
  );
}
