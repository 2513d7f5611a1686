// The prompt editor: /prompts/new writes a new prompt, /prompts/$promptId/new-version the
// next version of one. Its parts (and CodeMirror, which only this lazy page loads) live in ./editor.
import { useParams } from "@tanstack/react-router";
import { NewPromptEditor } from "./editor/new-prompt-editor.tsx";
import { NewVersionEditor } from "./editor/new-version-editor.tsx";

export function PromptEditorPage() {
  const { promptId } = useParams({ strict: false });
  return promptId ? <NewVersionEditor key={promptId} promptId={promptId} /> : <NewPromptEditor />;
}
