// Placeholder: the prompt page (issue 13) is being written.
export function PromptPage() {
  return <h1 className="text-2xl font-bold tracking-tight">Prompt</h1>;
}
