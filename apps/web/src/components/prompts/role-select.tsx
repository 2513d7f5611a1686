import { CHAT_ROLES, type ChatRole } from "@promptly/shared";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

/** A chat message's role picker: the editor's messages, the playground's and a placeholder's messages. */
export function RoleSelect({ value, onChange, label, size, className }: { value: ChatRole; onChange(role: ChatRole): void; label: string; size?: "sm"; className?: string }) {
  return (
    <Select value={value} onValueChange={(role) => onChange(role as ChatRole)}>
      <SelectTrigger size={size} aria-label={label} className={className}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {CHAT_ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {role}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
