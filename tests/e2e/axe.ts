import axe from 'axe-core';
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/** Waits until nothing animates but spinners (which turn for ever): a dialog's fade has ended. */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/**
 * axe-core's violations on the page as it is now (or on the part `within` selects), one line
 * each: "what: rule (impact) help → up to three elements". It waits for fades to end first
 * (colours read mid-fade are blends, a false contrast failure on a busy machine). axe runs in
 * the page with all its rules, as @axe-core/playwright runs it in a page without frames (the
 * console has none); it is put in the page once per document and sends back the violations only.
 */
export async function axeViolations(page: Page, what: string, within?: string): Promise<string[]> {
  await animationsSettled(page);
  if (page.frames().length > 1) throw new Error(`${what}: the page has frames, which axe is not put in here`);
  if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (selector) => {
    const result = await window.axe!.run(selector === null ? document : { include: [selector] }, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  }, within ?? null);
  return violations.map((v) => `${what}: ${v.id} (${v.impact}) ${v.help} → ${v.nodes.join(' | ')}`);
}
