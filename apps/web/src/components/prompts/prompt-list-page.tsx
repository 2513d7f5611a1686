// Placeholder: the prompt lists (issue 13) are being written.
export function PromptListPage({ mode }: { mode: "all" | "bookmarks" }) {
  return <h1 className="text-2xl font-bold tracking-tight">{mode === "all" ? "All Prompts" : "My Bookmarks"}</h1>;
}
