// A 6-digit code box with Verify and Cancel: input limited to 6 characters.
import { useId, useState, type FormEvent } from "react";
import { MSG } from "@promptly/shared";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { TotpCodeInput, isTotpCode } from "@/components/auth/totp-code-input";

export interface CodeEntryProps {
  label?: string;
  busy: boolean;
  error?: string;
  onVerify(code: string): void;
  onCancel(): void;
  verifyLabel?: string;
}

export function CodeEntry({ label = "Verification code", busy, error, onVerify, onCancel, verifyLabel = "Verify" }: CodeEntryProps) {
  const [code, setCode] = useState("");
  const formId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = code.trim();
    if (!isTotpCode(trimmed)) {
      toast.error(MSG.invalidVerificationCode, { description: MSG.enterSixDigitCode });
      return;
    }
    onVerify(trimmed);
  }

  return (
    <form id={formId} onSubmit={submit} className="grid gap-3" noValidate>
      <FormField label={label} error={error}>
        <TotpCodeInput value={code} onChange={setCode} className="max-w-40" />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? "Verifying..." : verifyLabel}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
