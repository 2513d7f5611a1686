// Notifications: four toggles stored on the server, and 'Save Changes'.
import { useId, useState } from "react";
import { toast } from "sonner";
import { NOTIFICATION_MSG, SETTINGS_MSG } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { trpc } from "@/lib/trpc";
import { errorMessage } from "./errors.ts";

type Preferences = RouterOutputs["profile"]["notificationPreferences"];

const TOGGLES: { key: keyof Preferences; label: string; description: string; note?: string }[] = [
  { key: "emailNotifications", label: "Email Notifications", description: "Receive notifications by email." },
  { key: "pushNotifications", label: "Push Notifications", description: "Receive push notifications in your browser.", note: NOTIFICATION_MSG.pushNotSent },
  { key: "inAppNotifications", label: "In-App Notifications", description: "See notifications inside the app." },
  { key: "marketingEmails", label: "Marketing Emails", description: "Receive news about products and features." },
];

function Toggle({ label, description, note, checked, onChange, disabled }: { label: string; description: string; note?: string; checked: boolean; onChange(value: boolean): void; disabled: boolean }) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
        {note && (
          <p id={`${id}-note`} className="text-sm text-muted-foreground">
            {note}
          </p>
        )}
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} disabled={disabled} aria-describedby={note ? `${id}-description ${id}-note` : `${id}-description`} />
    </div>
  );
}

export function NotificationsForm({ preferences }: { preferences: Preferences }) {
  const utils = trpc.useUtils();
  const save = trpc.profile.updateNotificationPreferences.useMutation();
  const [values, setValues] = useState<Preferences>(preferences);

  async function onSave() {
    try {
      const saved = await save.mutateAsync(values);
      utils.profile.notificationPreferences.setData(undefined, saved);
      // The header's bell shows only while in-app notifications are on.
      void utils.notifications.unreadCount.invalidate();
      toast.success(SETTINGS_MSG.notificationsSaved, { description: SETTINGS_MSG.notificationsSavedDescription });
    } catch (error) {
      toast.error(SETTINGS_MSG.notificationsSaveError, { description: errorMessage(error, "Please try again.") });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>Choose how you want to be notified.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {TOGGLES.map(({ key, label, description, note }) => (
          <Toggle
            key={key}
            label={label}
            description={description}
            note={note}
            checked={values[key]}
            disabled={save.isPending}
            onChange={(checked) => setValues((current) => ({ ...current, [key]: checked }))}
          />
        ))}
        <div>
          <Button onClick={onSave} disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save Changes"}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
