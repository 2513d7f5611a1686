// The prompt page's route, reached by its id: importing the route file would close a cycle (it lazy-loads the page).
import { getRouteApi } from "@tanstack/react-router";

const promptRouteApi = getRouteApi("/app/prompts/$promptId");

export type PromptSearch = ReturnType<typeof promptRouteApi.useSearch>;
export type PromptTab = NonNullable<PromptSearch["tab"]>;

export const usePromptId = () => promptRouteApi.useParams().promptId;

/** The page's search params and a setter that keeps the others (`replace` for changes not worth a Back step). */
export function usePromptSearch() {
  const search = promptRouteApi.useSearch();
  const navigate = promptRouteApi.useNavigate();
  const update = (patch: Partial<PromptSearch>, options: { replace?: boolean } = {}) =>
    void navigate({ search: (previous) => ({ ...previous, ...patch }), replace: options.replace });
  return [search, update] as const;
}
