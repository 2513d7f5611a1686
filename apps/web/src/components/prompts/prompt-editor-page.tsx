// Placeholder: the prompt editor (issue 13) is being written.
export function PromptEditorPage() {
  return <h1 className="text-2xl font-bold tracking-tight">New Prompt</h1>;
}
