import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`/usr/bin/chromium`, installed by scripts/ensure-system-packages.sh), or `SWITCHYARD_CHROMIUM`. */
export const CHROMIUM = process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The console's navigation for an admin (the master key), in order: every page. */
export const ADMIN_PAGES = [
  'Keys',
  'Teams',
  'Usage',
  'End users & sessions',
  'Requests',
  'Models',
  'Playground',
  'Audit',
] as const;

/** A headless Chromium with one page, and what the page reported: dialogs opened, CSP violations, uncaught errors. */
export interface ConsolePage {
  browser: Browser;
  page: Page;
  dialogs: string[];
  cspViolations: string[];
  pageErrors: string[];
}

/**
 * Launches Chromium (driven by playwright-core; no browser download) with one 1280x800 page whose actions wait up to
 * 15 s; dialogs are recorded and dismissed. Throws, naming the fix, when Chromium is not installed (never skips).
 */
export async function launchConsolePage(): Promise<ConsolePage> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium), or run ./dev test, which installs it.`,
    );
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  const reported: Omit<ConsolePage, 'browser' | 'page'> = { dialogs: [], cspViolations: [], pageErrors: [] };
  page.on('dialog', (dialog) => {
    reported.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) reported.cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => reported.pageErrors.push(error.message));
  return { browser, page, ...reported };
}
