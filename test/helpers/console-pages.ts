// The checks every console page passes, at 390 px and at 1440 px: axe-core finds no serious or critical violation,
// Tab reaches every visible control (and each focused element is on screen), nothing overflows the width, and no
// console error, page error or failed request happened while the page was open. A screenshot of each width is saved.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";

// The page's DOM as far as the callbacks that run in the browser use it (this project compiles without the DOM lib).
interface El {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  getBoundingClientRect(): { width: number; height: number };
  closest(selector: string): El | null;
  matches(selector: string): boolean;
  blur(): void;
}
declare const document: {
  querySelector(s: string): El | null;
  querySelectorAll(s: string): Iterable<El>;
  activeElement: El | null;
  documentElement: { scrollWidth: number };
};
declare const window: { innerWidth: number };
declare function getComputedStyle(el: El): { visibility: string };

export const WIDTHS = [390, 1440] as const;
export const SCREENSHOT_DIR = path.resolve("test-results/console");

/** What went wrong on a page: the line a test prints, and the URL it came from (a request's, or the script's that
 * logged a console error — Chromium's "Failed to load resource" names the resource there, not in its text). */
interface Problem {
  line: string;
  url: string;
}

/** Console errors, page errors and failed requests (status ≥ 400 or no answer) seen on a page since the last take(). */
export function watchPage(page: Page) {
  let problems: Problem[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") {
      const url = msg.location().url;
      problems.push({ line: `console: ${msg.text()}${url ? ` (${url})` : ""}`, url });
    }
  });
  page.on("pageerror", (err) => problems.push({ line: `pageerror: ${err.message}`, url: "" }));
  page.on("requestfailed", (req) =>
    problems.push({ line: `failed: ${req.method()} ${req.url()} ${req.failure()?.errorText}`, url: req.url() }),
  );
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push({ line: `HTTP ${res.status()}: ${res.request().method()} ${res.url()}`, url: res.url() });
  });
  const drain = () => {
    const out = problems;
    problems = [];
    return out;
  };
  return {
    take(): string[] {
      return drain().map((p) => p.line);
    },
    /** For a step with one request that must fail: its problems (`expected`: the answer and Chromium's console line for
     * it) apart from all the others (`others`, which the step asserts empty). Only that exact URL is set aside. */
    takeBesides(url: string): { expected: string[]; others: string[] } {
      const all = drain();
      return { expected: all.filter((p) => p.url === url).map((p) => p.line), others: all.filter((p) => p.url !== url).map((p) => p.line) };
    },
  };
}

/** Waits until no loading state is on screen (every list, chart and detail has answered). */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page.waitForFunction(() => !document.querySelector('[role="status"]')?.textContent?.startsWith("Loading"), null, {
    timeout: 20_000,
  });
}

export interface PageCheck {
  name: string;
  width: number;
  violations: string[];
  unreachable: string[];
  overflow: number;
}

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page: page as never }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Tabs through the page and names every visible, enabled control that never received focus. */
async function keyboard(page: Page): Promise<string[]> {
  const controls = await page.evaluate(() => {
    const selector =
      'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';
    const visible = [...document.querySelectorAll(selector)].filter((el) => {
      const box = el.getBoundingClientRect();
      // A radio group is one Tab stop (arrow keys move inside it): only its checked radio counts.
      const otherRadio =
        el.getAttribute("type") === "radio" &&
        !el.matches(":checked") &&
        document.querySelector(`input[type=radio][name="${el.getAttribute("name")}"]:checked`);
      return (
        box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden" && !el.closest("dialog:not([open])") && !otherRadio
      );
    });
    visible.forEach((el, i) => {
      el.setAttribute("data-kb", String(i));
    });
    return visible.length;
  });
  const reached = new Set<string>();
  await page.evaluate(() => document.activeElement?.blur());
  // Scrollable boxes are Tab stops too (Chromium), so allow more presses than controls.
  for (let i = 0; i < controls * 2 + 20 && reached.size < controls; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement?.getAttribute("data-kb") ?? null);
    if (id !== null) reached.add(id);
  }
  return page.evaluate(
    (seen) =>
      [...document.querySelectorAll("[data-kb]")]
        .filter((el) => !seen.includes(el.getAttribute("data-kb") ?? ""))
        .map((el) => `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`),
    [...reached],
  );
}

/** Checks the page that is open at each width and saves `<name>-<width>.png`. */
export async function checkPage(page: Page, name: string): Promise<PageCheck[]> {
  const out: PageCheck[] = [];
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 1000 });
    await settled(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    out.push({ name, width, violations: await axe(page), unreachable: await keyboard(page), overflow });
    // The Tab walk leaves a focus ring on the last control; the picture is of the page at rest.
    await page.evaluate(() => document.activeElement?.blur());
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: width > 800 });
  }
  return out;
}
