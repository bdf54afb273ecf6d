import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

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

/**
 * A page of the console in its own browser context (no cookies shared with other contexts), and what the page
 * reported: dialogs opened, CSP violations, uncaught errors.
 */
export interface ConsolePage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  dialogs: string[];
  cspViolations: string[];
  pageErrors: string[];
}

/**
 * Launches headless Chromium (driven by playwright-core; no browser download). Throws, naming the fix, when Chromium
 * is not installed (never skips). The caller closes it.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium), or run ./dev test, which installs it.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * Opens a 1280x800 page in a fresh context of `browser` (its own cookies) whose actions wait up to 15 s; dialogs are
 * recorded and dismissed, CSP violations and uncaught errors recorded.
 */
export async function openConsolePage(browser: Browser): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const reported: Omit<ConsolePage, 'browser' | 'context' | 'page'> = {
    dialogs: [],
    cspViolations: [],
    pageErrors: [],
  };
  page.on('dialog', (dialog) => {
    reported.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) reported.cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => reported.pageErrors.push(error.message));
  return { browser, context, page, ...reported };
}

/** Launches Chromium (`launchChromium`) with one console page (`openConsolePage`); the caller closes the browser. */
export async function launchConsolePage(): Promise<ConsolePage> {
  return openConsolePage(await launchChromium());
}

/**
 * Opens the console at `<origin>/ui/` and signs in with the master key (the sign-in form); resolves once the form is
 * sent, so the caller waits for what it expects to see.
 */
export async function signInWithMasterKey(page: Page, origin: string, masterKey: string): Promise<void> {
  await page.goto(`${origin}/ui/`);
  await page.getByLabel('Master key').fill(masterKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
