// The raw words behind a failure in plain words (a provider's own message, the network's error code),
// folded away under "Details": there for whoever needs them, out of the way of those who do not.
export function ErrorDetails({ detail }: { detail: string | null | undefined }) {
  if (!detail) return null;
  return (
    <details className="mt-1 text-xs" data-testid="error-details">
      <summary className="cursor-pointer select-none font-medium">Details</summary>
      <pre className="mt-1 whitespace-pre-wrap break-words font-mono">{detail}</pre>
    </details>
  );
}
