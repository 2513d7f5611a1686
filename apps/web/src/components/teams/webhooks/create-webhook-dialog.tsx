// 'Add webhook': URL, events and the Slack format, checked by the same schema as the server; then the
// signing secret, shown this once with Copy. Closing the dialog forgets it: the server keeps it sealed.
import { useId, useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { Copy, TriangleAlert } from "lucide-react";
import { toast } from "sonner";
import { z } from "zod";
import { createWebhookInput, WEBHOOK_EVENT_TEXT, WEBHOOK_EVENTS, type WebhookEvent } from "@promptly/shared";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";

interface FormValues {
  url: string;
  events: WebhookEvent[];
  slack: boolean;
}
type WebhookSettings = z.output<typeof createWebhookInput>;

const DEFAULTS: FormValues = { url: "", events: ["prompt.label.moved"], slack: false };

/** Which form field shows a message about an input field. */
const FIELD_OF_INPUT: Record<string, keyof FormValues> = { url: "url", events: "events", slack: "slack" };

// The shared schema checks the form, so the browser and the server refuse the same things in the same words.
const resolver: Resolver<FormValues, unknown, WebhookSettings> = async (values) => {
  const parsed = createWebhookInput.safeParse({ ...values, events: values.events || [] });
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF_INPUT[String(issue.path[0])];
    if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

export function CreateWebhookDialog({ teamId, teamName, open, onOpenChange }: { teamId: string; teamName: string; open: boolean; onOpenChange(open: boolean): void }) {
  const utils = trpc.useUtils();
  const [secret, setSecret] = useState<string | null>(null);
  const form = useForm<FormValues, unknown, WebhookSettings>({ resolver, mode: "onSubmit", reValidateMode: "onChange", defaultValues: DEFAULTS });
  const { register, handleSubmit, formState, reset, setError, watch } = form;
  const eventsId = useId();
  const slackId = useId();

  const create = trpc.webhooks.create.useMutation({
    // Nothing keeps the answer once the dialog lets it go.
    gcTime: 0,
    onSuccess(result) {
      setSecret(result.secret);
      void utils.webhooks.list.invalidate({ teamId });
    },
    onError(error) {
      const fields = serverFieldErrors(error);
      const field = Object.keys(fields).find((name) => FIELD_OF_INPUT[name] && fields[name]);
      if (field) setError(FIELD_OF_INPUT[field]!, { message: fields[field] });
      // A refusal about the URL (a private address) is the URL field's.
      else if (error.data?.code === "BAD_REQUEST") setError("url", { message: error.message });
      else toast.error("Failed to add the webhook", { description: error.message });
    },
  });
  const busy = create.isPending;

  const close = () => {
    setSecret(null);
    create.reset();
    reset(DEFAULTS);
    onOpenChange(false);
  };

  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      toast.success("Copied");
    } catch {
      toast.error("Could not copy", { description: "The browser did not allow access to the clipboard. Select the secret and copy it." });
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !busy && close())}>
      <DialogContent onInteractOutside={(event) => secret && event.preventDefault()}>
        {secret ? (
          <>
            <DialogHeader>
              <DialogTitle>Webhook added</DialogTitle>
              <DialogDescription>Each delivery carries a Promptly-Signature header made with this secret: check it before trusting a request.</DialogDescription>
            </DialogHeader>
            {/* amber-900 on amber-50 is about 9:1. */}
            <Alert className="border-amber-600/50 bg-amber-50 text-amber-900">
              <TriangleAlert aria-hidden="true" />
              <AlertTitle>Copy this secret now. You will not see it again.</AlertTitle>
            </Alert>
            <div className="flex items-end gap-2">
              <FormField label="Signing secret" className="min-w-0 flex-1">
                <Input readOnly value={secret} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
              </FormField>
              <Button variant="outline" aria-label="Copy signing secret" autoFocus onClick={() => void copy()}>
                <Copy aria-hidden="true" />
                Copy
              </Button>
            </div>
            <DialogFooter>
              <Button onClick={close}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Add webhook</DialogTitle>
              <DialogDescription className="wrap-anywhere">Promptly will POST the events you choose in {teamName} to this URL.</DialogDescription>
            </DialogHeader>
            <form noValidate aria-label="Add webhook" className="grid gap-4" onSubmit={handleSubmit((settings) => create.mutate({ teamId, ...settings }))}>
              <FormField label="URL" error={formState.errors.url?.message}>
                <Input type="url" autoComplete="off" placeholder="https://example.com/promptly-webhook" disabled={busy} {...register("url")} />
              </FormField>
              <fieldset className="grid gap-2" aria-describedby={formState.errors.events ? `${eventsId}-error` : undefined}>
                <legend className="mb-2 text-sm font-medium">Events</legend>
                {WEBHOOK_EVENTS.map((event) => (
                  <div key={event} className="flex items-center gap-2">
                    <input type="checkbox" id={`${eventsId}-${event}`} value={event} disabled={busy} className="size-4 accent-primary" {...register("events")} />
                    <Label htmlFor={`${eventsId}-${event}`}>
                      {WEBHOOK_EVENT_TEXT[event]} <span className="font-mono text-xs text-muted-foreground">{event}</span>
                    </Label>
                  </div>
                ))}
                {formState.errors.events && (
                  <p id={`${eventsId}-error`} role="alert" className="text-sm text-destructive">
                    {formState.errors.events.message}
                  </p>
                )}
              </fieldset>
              <div className="flex items-start gap-2">
                <input type="checkbox" id={slackId} aria-describedby={`${slackId}-hint`} disabled={busy} className="mt-0.5 size-4 accent-primary" {...register("slack")} />
                <div className="grid gap-1">
                  <Label htmlFor={slackId}>Slack format</Label>
                  <p id={`${slackId}-hint`} className="text-sm text-muted-foreground">
                    Send a message Slack's incoming webhooks understand ({"{ \"text\": … }"}) instead of the event's JSON.
                  </p>
                </div>
              </div>
              <DialogFooter>
                <Button type="button" variant="outline" disabled={busy} onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" disabled={busy || !watch("url")?.trim()} disabledReason={busy ? undefined : "Enter the URL to send events to first"}>
                  {busy ? "Adding..." : "Add webhook"}
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
