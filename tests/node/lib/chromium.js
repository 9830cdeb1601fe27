// Debian's chromium for the browser suites, driven by playwright-core: a fresh profile each run and no
// network the test did not start (no updates, no sync, no QUIC). A missing browser fails the suite,
// never skips it: scripts/setup.sh installs it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Resolves to { browser, close }: `browser` a persistent context; `close` ends it and removes its profile. */
export async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), "prflow-chromium-"));
  let browser;
  try {
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(
      `chromium could not start from ${CHROMIUM} (install it with scripts/setup.sh, which runs apt-get install chromium): ${e.message}`,
    );
  }
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
