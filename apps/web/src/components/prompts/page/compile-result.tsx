// What Compile made: the text, or the messages by role, with a Copy button.
import type { PromptMessage } from "@promptly/shared";
import { ChatMessages } from "./chat-messages.tsx";
import { CopyButton } from "./copy-button.tsx";
import { prettyJson } from "./version-body.ts";

export type Compiled = { text: string } | { messages: PromptMessage[] };

export function CompileResult({ result }: { result: Compiled }) {
  const plain = (text: string) => <pre className="font-mono text-sm break-words whitespace-pre-wrap">{text}</pre>;
  return (
    <section aria-labelledby="compile-result-title" className="grid min-w-0 gap-2" data-testid="compile-result">
      <div className="flex items-center justify-between gap-2">
        <h3 id="compile-result-title" className="text-base font-semibold">
          Result
        </h3>
        <CopyButton text={"text" in result ? result.text : prettyJson(result.messages)} label="Copy result" />
      </div>
      {"text" in result ? (
        <div className="rounded-md border border-border bg-muted/40 p-3">{plain(result.text)}</div>
      ) : (
        <ChatMessages messages={result.messages} label="Compiled messages" render={plain} />
      )}
    </section>
  );
}
