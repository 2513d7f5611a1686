// The authenticator-code box used at the sign-in step and on the Security settings page:
// digits only as typed (spaces dropped), at most 6 characters, filled in by password managers.
import type { ComponentProps } from "react";
import { TWO_FACTOR_CODE_LENGTH } from "@promptly/shared";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

const TOTP_CODE = new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`);

/** True for a code of exactly six digits. */
export const isTotpCode = (value: string) => TOTP_CODE.test(value);

type TotpCodeInputProps = Omit<ComponentProps<"input">, "value" | "onChange"> & { value: string; onChange(code: string): void };

/** Other props (id, aria-* from FormField) reach the input. */
export function TotpCodeInput({ value, onChange, className, ...props }: TotpCodeInputProps) {
  return (
    <Input
      {...props}
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\s/g, ""))}
      maxLength={TWO_FACTOR_CODE_LENGTH}
      inputMode="numeric"
      autoComplete="one-time-code"
      placeholder="123456"
      autoFocus
      className={cn("font-mono tracking-widest", className)}
    />
  );
}
