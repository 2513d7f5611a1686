// The Teams page's Production card: whether the team's production generations (sent by OpenTelemetry,
// the Langfuse SDKs or /api/v1) keep their input and output text. Off by default: only their figures
// are kept; turning it off deletes the text kept so far. Team admins switch it; everyone who sees the team reads it.
import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { GENERATION_TEXT_MAX_BYTES } from "@promptly/shared";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { trpc } from "@/lib/trpc";

export function ProductionTextCard({ team, canManage }: { team: { id: string; keepGenerationText: boolean }; canManage: boolean }) {
  const id = useId();
  const utils = trpc.useUtils();
  // Shown at once, put back if the server refuses.
  const [checked, setChecked] = useState(team.keepGenerationText);
  useEffect(() => setChecked(team.keepGenerationText), [team.keepGenerationText]);
  const update = trpc.teams.setGenerationText.useMutation({
    async onSuccess({ keepGenerationText }) {
      toast.success(keepGenerationText ? "Generations' text is kept from now on" : "Generations' text is no longer kept; the text kept so far is deleted");
      await Promise.all([utils.teams.list.invalidate(), utils.teams.get.invalidate()]);
    },
    onError: (error, input) => {
      setChecked(!input.keep);
      toast.error(error.message);
    },
  });
  const limit = `${GENERATION_TEXT_MAX_BYTES / 1024} KB`;
  return (
    <Card data-testid="production-text-card">
      <CardHeader>
        <CardTitle>Production</CardTitle>
        <CardDescription>
          {team.keepGenerationText
            ? `Generations sent in keep their input and output text, up to ${limit} each. Turning this off deletes the text kept so far.`
            : "Generations sent in keep only their figures (tokens, latency, cost, status), not their text."}
        </CardDescription>
      </CardHeader>
      {canManage && (
        <CardContent>
          <div className="flex items-center gap-2">
            <input
              type="checkbox"
              id={id}
              className="size-4 accent-primary"
              checked={checked}
              disabled={update.isPending}
              onChange={(event) => {
                setChecked(event.target.checked);
                update.mutate({ id: team.id, keep: event.target.checked });
              }}
            />
            <Label htmlFor={id}>Keep generations' input and output text (up to {limit} each)</Label>
          </div>
        </CardContent>
      )}
    </Card>
  );
}
