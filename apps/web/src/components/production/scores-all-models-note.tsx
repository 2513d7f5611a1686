// Scores carry no model: with a model chosen, the generation figures are that model's but the score figures
// every model's. The figures per version and the comparison both say so, in the same words.

/** `id` is also the note's test id; one per place it is shown, so a heading can point at it (aria-describedby). */
export function ScoresAllModelsNote({ id }: { id: string }) {
  return (
    <p id={id} className="text-xs text-muted-foreground" data-testid={id}>
      Scores are for all models: they carry no model, so the model filter does not apply to them.
    </p>
  );
}
