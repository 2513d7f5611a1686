// The evaluation tests' world: a harness, the tests' model provider, a team, the organization's
// connection to that provider and the evaluation worker, started before a file's tests and closed
// after them.
import { afterAll, beforeAll, expect } from "vitest";
import { createHarness, type Harness } from "./harness.ts";
import { startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { createWorld } from "./teams-support.ts";

type World = Awaited<ReturnType<typeof createWorld>>;

export interface EvaluationWorld {
  h: Harness;
  world: World;
  provider: FakeProvider;
  team: { id: string };
  connection: { id: string };
  /** The evaluation once it has finished (done, failed or cancelled), as a viewer reads it. */
  finished(id: string): ReturnType<World["callers"]["viewer"]["evaluations"]["get"]>;
}

/** The fixture; its fields are set inside the file's tests. */
export function useEvaluationWorld(): EvaluationWorld {
  const fixture = {
    async finished(id) {
      const { viewer } = fixture.world.callers;
      await expect.poll(async () => (await viewer.evaluations.get({ id })).status, { timeout: 10_000, interval: 50 }).toMatch(/done|failed|cancelled/);
      return viewer.evaluations.get({ id });
    },
  } as Partial<EvaluationWorld> as EvaluationWorld;
  beforeAll(async () => {
    [fixture.h, fixture.provider] = await Promise.all([createHarness(), startFakeProvider()]);
    fixture.world = await createWorld(fixture.h);
    fixture.team = await fixture.world.team();
    fixture.connection = await fixture.world.callers.orgAdmin.providers.create({
      organizationId: fixture.world.organization.id, kind: "openai-compatible", name: "Local", baseUrl: fixture.provider.openaiBaseUrl, apiKey: fixture.provider.apiKey,
    });
    await fixture.h.services.evaluations.startWorker(fixture.h.services.db);
  });
  afterAll(() => Promise.all([fixture.h?.close(), fixture.provider?.close()]));
  return fixture;
}
