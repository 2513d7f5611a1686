// The prompt's stars: the person's own rating (ratings.set / ratings.clear) and the average.
import { PROMPT_MSG } from "@promptly/shared";
import { trpc } from "@/lib/trpc";
import { StarRating } from "../star-rating.tsx";
import type { PromptDetail } from "./types.ts";
import { toastFailure, useRefreshPrompt } from "./use-refresh-prompt.ts";

export function PromptRating({ prompt }: { prompt: PromptDetail }) {
  const refresh = useRefreshPrompt();
  const settle = { onSuccess: refresh, onError: toastFailure("Rating not saved") };
  const set = trpc.ratings.set.useMutation(settle);
  const clear = trpc.ratings.clear.useMutation(settle);
  return (
    <StarRating
      value={prompt.myRating}
      average={prompt.ratingAverage}
      count={prompt.ratingCount}
      disabledReason={prompt.can.rate ? undefined : PROMPT_MSG.ownPromptRating}
      pending={set.isPending || clear.isPending}
      onRate={(stars) => set.mutate({ promptId: prompt.id, stars })}
      onClear={() => clear.mutate({ promptId: prompt.id })}
    />
  );
}
