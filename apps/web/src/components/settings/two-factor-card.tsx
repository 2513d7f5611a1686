// Two-factor authentication: the toggle, the setup with QR code and secret,
// verification of a first code, the one-time recovery codes, and turning it off with a current code.
import { useId, useState } from "react";
import { toast } from "sonner";
import { SETTINGS_MSG } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { trpc } from "@/lib/trpc";
import { CodeEntry } from "./code-entry.tsx";
import { errorMessage } from "./errors.ts";

type Setup = RouterOutputs["security"]["setupTwoFactor"];
type Mode = { kind: "idle" } | { kind: "enabling"; setup: Setup } | { kind: "disabling" } | { kind: "recovery"; codes: string[] };

/** The secret in groups of four, easier to type. */
const groupSecret = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

export function TwoFactorCard({ enabled, recoveryCodesRemaining }: { enabled: boolean; recoveryCodesRemaining: number }) {
  const utils = trpc.useUtils();
  const setup = trpc.security.setupTwoFactor.useMutation();
  const enable = trpc.security.enableTwoFactor.useMutation();
  const disable = trpc.security.disableTwoFactor.useMutation();
  const [mode, setMode] = useState<Mode>({ kind: "idle" });
  const [codeError, setCodeError] = useState<string | undefined>();
  const switchId = useId();

  const checked = mode.kind === "enabling" || mode.kind === "recovery" || (enabled && mode.kind !== "disabling");

  async function onToggle(on: boolean) {
    setCodeError(undefined);
    if (on && mode.kind === "disabling") return setMode({ kind: "idle" });
    if (!on && mode.kind === "enabling") return setMode({ kind: "idle" });
    if (!on && enabled) return setMode({ kind: "disabling" });
    if (on && !enabled) {
      try {
        setMode({ kind: "enabling", setup: await setup.mutateAsync() });
      } catch (error) {
        toast.error(SETTINGS_MSG.twoFactorEnableError, { description: errorMessage(error, "Please try again.") });
      }
    }
  }

  async function onEnable(code: string) {
    try {
      const { recoveryCodes } = await enable.mutateAsync({ code });
      setCodeError(undefined);
      setMode({ kind: "recovery", codes: recoveryCodes });
      await utils.security.overview.invalidate();
      toast.success(SETTINGS_MSG.twoFactorEnabled, { description: SETTINGS_MSG.twoFactorEnabledDescription });
    } catch (error) {
      // Told once, under the code it is about.
      setCodeError(errorMessage(error, "Please try again."));
    }
  }

  async function onDisable(code: string) {
    try {
      await disable.mutateAsync({ code });
      setCodeError(undefined);
      setMode({ kind: "idle" });
      await utils.security.overview.invalidate();
      toast.error(SETTINGS_MSG.twoFactorDisabled, { description: SETTINGS_MSG.twoFactorDisabledDescription });
    } catch (error) {
      // Told once, under the code it is about.
      setCodeError(errorMessage(error, "Please try again."));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Two-Factor Authentication</CardTitle>
        <CardDescription>Ask for a code from an authenticator app when you sign in.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-center justify-between gap-4">
          <div className="grid gap-1">
            <Label htmlFor={switchId}>Two-factor authentication</Label>
            <p className="text-sm text-muted-foreground" data-testid="two-factor-status">
              {enabled ? `Enabled · ${recoveryCodesRemaining} recovery codes left` : "Disabled"}
            </p>
          </div>
          <Switch id={switchId} checked={checked} onCheckedChange={onToggle} disabled={setup.isPending || mode.kind === "recovery"} />
        </div>

        {mode.kind === "enabling" && (
          <div className="grid gap-4 rounded-lg border border-border p-4" data-testid="two-factor-setup">
            <p className="text-sm">
              Scan this QR code with your authenticator app, or type the key below. Then enter the 6-digit code it shows.
            </p>
            <img src={mode.setup.qrCodeDataUrl} alt="QR code for your authenticator app" width={200} height={200} className="rounded-md border border-border" />
            <div className="grid gap-1">
              <span className="text-sm font-medium" id={`${switchId}-secret`}>Setup key</span>
              <code className="w-fit rounded bg-muted px-2 py-1 font-mono text-sm break-all" aria-labelledby={`${switchId}-secret`} data-testid="two-factor-secret">
                {groupSecret(mode.setup.secret)}
              </code>
            </div>
            <CodeEntry busy={enable.isPending} error={codeError} onVerify={onEnable} onCancel={() => void onToggle(false)} />
          </div>
        )}

        {mode.kind === "disabling" && (
          <div className="grid gap-4 rounded-lg border border-border p-4" data-testid="two-factor-disable">
            <p className="text-sm">Enter a current code from your authenticator app to turn two-factor authentication off.</p>
            <CodeEntry busy={disable.isPending} error={codeError} onVerify={onDisable} onCancel={() => void onToggle(true)} />
          </div>
        )}

        {mode.kind === "recovery" && <RecoveryCodes codes={mode.codes} onDone={() => setMode({ kind: "idle" })} />}
      </CardContent>
    </Card>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-3 rounded-lg border border-border p-4" data-testid="recovery-codes">
      <h4 id={headingId} className="font-medium">
        Recovery codes
      </h4>
      <p className="text-sm text-muted-foreground">
        Keep these codes somewhere safe. If you lose your authenticator app, each one signs you in once. They are shown only now.
      </p>
      <ol className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex gap-2">
        <Button
          variant="outline"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(codes.join("\n"))
              .then(() => toast.success("Recovery codes copied"))
              .catch(() => toast.error("Could not copy the codes"))
          }
        >
          Copy codes
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </section>
  );
}
