import * as allure from "allure-js-commons";

/**
 * The run's seed on a property test's Allure result: shown, so a reader can replay the run (`--seed`), but excluded
 * from the result's history id, so the test keeps one history across runs with different seeds.
 */
export async function showSeed(seed: number): Promise<void> {
  await allure.parameter("seed", String(seed), { excluded: true });
}
