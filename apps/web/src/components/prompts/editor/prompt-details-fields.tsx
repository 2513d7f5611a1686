// A new prompt's own fields: team, title, name (derived from the title until edited, checked for
// availability as it is typed), description, tags and visibility.
import { PROMPT_MSG, PROMPT_VISIBILITIES, PROMPT_VISIBILITY_LABELS, nameFromTitle, type PromptVisibility } from "@promptly/shared";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EditorSection } from "./editor-section.tsx";
import { Textarea } from "@/components/ui/textarea";
import type { NameCheck } from "./use-name-check.ts";

export interface PromptDetails {
  teamId: string;
  title: string;
  name: string;
  /** Once the author edits the name, the title no longer changes it. */
  nameEdited: boolean;
  description: string;
  /** Comma-separated, lowercased as typed. */
  tags: string;
  visibility: PromptVisibility;
}

interface PromptDetailsFieldsProps {
  details: PromptDetails;
  onChange(change: Partial<PromptDetails>): void;
  teams: { id: string; name: string }[];
  nameCheck: NameCheck;
  errors: Partial<Record<keyof PromptDetails, string>>;
}

export function PromptDetailsFields({ details, onChange, teams, nameCheck, errors }: PromptDetailsFieldsProps) {
  const nameError = errors.name ?? (nameCheck === "taken" ? PROMPT_MSG.nameTaken : undefined);
  return (
    <EditorSection title="Details">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Select value={details.teamId} onValueChange={(teamId) => onChange({ teamId })}>
          <FormField label="Team" error={errors.teamId}>
            <SelectTrigger className="w-full">
              <SelectValue />
            </SelectTrigger>
          </FormField>
          <SelectContent>
            {teams.map((team) => (
              <SelectItem key={team.id} value={team.id}>
                {team.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={details.visibility} onValueChange={(visibility) => onChange({ visibility: visibility as PromptVisibility })}>
          <FormField label="Visibility" error={errors.visibility}>
            <SelectTrigger className="w-full">
              <SelectValue />
            </SelectTrigger>
          </FormField>
          <SelectContent>
            {PROMPT_VISIBILITIES.map((visibility) => (
              <SelectItem key={visibility} value={visibility}>
                {PROMPT_VISIBILITY_LABELS[visibility]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <FormField label="Title" error={errors.title}>
          <Input
            autoComplete="off"
            placeholder="e.g. Refund answer"
            value={details.title}
            onChange={(e) => onChange({ title: e.target.value, ...(!details.nameEdited && { name: nameFromTitle(e.target.value) }) })}
          />
        </FormField>
        <FormField
          label="Name"
          error={nameError}
          description={!nameError && nameCheck === "available" ? <span className="text-emerald-700">{PROMPT_MSG.nameAvailable}</span> : undefined}
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            placeholder="support/customer-reply"
            className="font-mono"
            value={details.name}
            onChange={(e) => onChange({ name: e.target.value, nameEdited: true })}
          />
        </FormField>
        <FormField label="Description" error={errors.description} className="md:col-span-2">
          <Textarea rows={2} value={details.description} onChange={(e) => onChange({ description: e.target.value })} />
        </FormField>
        <FormField label="Tags" description="Separate tags with commas." error={errors.tags} className="md:col-span-2">
          <Input autoComplete="off" placeholder="support, email" value={details.tags} onChange={(e) => onChange({ tags: e.target.value.toLowerCase() })} />
        </FormField>
      </div>
    </EditorSection>
  );
}
