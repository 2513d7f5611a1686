// What every version holds: its type and text (a template, or chat messages), the variable contract,
// the model, its config, the tools it may call and its response format. Shared by the new prompt and
// new version pages.
import type { Dispatch, SetStateAction } from "react";
import { PROMPT_MSG, PROMPT_TYPES, TOOLS_MSG, type PromptType } from "@promptly/shared";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { CodeEditor } from "./code-editor.tsx";
import { contractRows, isJsonOrEmpty, type VersionDraft } from "./draft.ts";
import { EditorSection } from "./editor-section.tsx";
import { MessageList } from "./message-list.tsx";
import { Textarea } from "@/components/ui/textarea";
import { VariableTable } from "./variable-table.tsx";

const TYPE_LABELS: Record<PromptType, string> = { text: "Text", chat: "Chat" };

interface VersionFieldsProps {
  draft: VersionDraft;
  setDraft: Dispatch<SetStateAction<VersionDraft>>;
  configInvalid: boolean;
  /** Field messages of a refused save (model, config). */
  errors: Record<string, string | undefined>;
}

export function VersionFields({ draft, setDraft, configInvalid, errors }: VersionFieldsProps) {
  const patch = (change: Partial<VersionDraft>) => setDraft((current) => ({ ...current, ...change }));
  return (
    <>
      <EditorSection title="Prompt" description="Write {{ name }} where a value goes in; \{{ keeps the braces as text.">
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Type</legend>
          <div className="flex gap-4">
            {PROMPT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input type="radio" name="prompt-type" value={type} checked={draft.type === type} onChange={() => patch({ type })} className="size-4 accent-primary" />
                {TYPE_LABELS[type]}
              </label>
            ))}
          </div>
        </fieldset>
        {draft.type === "text" ? (
          <div className="grid gap-2">
            <span className="text-sm font-medium" aria-hidden="true">
              Template
            </span>
            <CodeEditor label="Template" value={draft.template} onChange={(template) => patch({ template })} placeholder="Write the prompt. Use {{ name }} for variables." />
          </div>
        ) : (
          <MessageList messages={draft.messages} onChange={(messages) => patch({ messages })} />
        )}
      </EditorSection>

      <EditorSection title="Variables" description="The contract of the values the prompt takes, filled in from the template.">
        <VariableTable
          rows={contractRows(draft)}
          onChange={(name, row) => setDraft((current) => ({ ...current, rows: { ...current.rows, [name]: row } }))}
        />
      </EditorSection>

      <EditorSection title="Model settings">
        <div className="grid gap-4 md:grid-cols-2">
          <FormField label="Model" error={errors.model}>
            <Input autoComplete="off" placeholder="gpt-4o" value={draft.model} onChange={(e) => patch({ model: e.target.value })} />
          </FormField>
          <FormField label="Config" description="Model parameters as a JSON object." error={configInvalid ? PROMPT_MSG.configNotObject : errors.config}>
            <Textarea
              className="font-mono"
              placeholder={'{"temperature": 0.7}'}
              spellCheck={false}
              value={draft.config}
              onChange={(e) => patch({ config: e.target.value })}
            />
          </FormField>
        </div>
      </EditorSection>

      <EditorSection title="Tools and response format" description={TOOLS_MSG.notCompiled}>
        <div className="grid gap-4 md:grid-cols-2">
          <FormField
            label="Tools"
            description="A JSON list of tools the model may call: { name, description, parameters }, parameters a JSON Schema."
            error={isJsonOrEmpty(draft.tools) ? errors.tools : TOOLS_MSG.fieldNotJson}
          >
            <Textarea
              className="font-mono"
              placeholder={'[{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]'}
              spellCheck={false}
              value={draft.tools}
              onChange={(e) => patch({ tools: e.target.value })}
            />
          </FormField>
          <FormField
            label="Response format"
            description='JSON: {"type": "json_schema", "name", "schema", "strict"} or {"type": "json_object"}; empty leaves the answer to the model.'
            error={isJsonOrEmpty(draft.responseFormat) ? errors.responseFormat : TOOLS_MSG.fieldNotJson}
          >
            <Textarea
              className="font-mono"
              placeholder={'{"type": "json_object"}'}
              spellCheck={false}
              value={draft.responseFormat}
              onChange={(e) => patch({ responseFormat: e.target.value })}
            />
          </FormField>
        </div>
      </EditorSection>
    </>
  );
}
