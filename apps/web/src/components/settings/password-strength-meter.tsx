// The strength bar and feedback text under 'New Password'.
import { passwordStrength } from "@promptly/shared";
import { Progress } from "@/components/ui/progress";
import { METER_CLASSES } from "./meter.ts";

export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  const strength = passwordStrength(password);
  return (
    <div className="grid gap-1.5" data-testid="password-strength" data-score={strength.score} data-color={strength.color}>
      <Progress value={strength.score} aria-label="Password strength" indicatorClassName={METER_CLASSES[strength.color]} />
      <p id={id} className="text-sm text-muted-foreground" aria-live="polite">
        {strength.feedback}
      </p>
    </div>
  );
}
