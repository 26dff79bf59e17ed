import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

export { expect };

/** Chromium's console line for a blocked load, and the event the page reports it with. */
const CSP_MESSAGE = /Content Security Policy|securitypolicyviolation/i;

/**
 * Every journey runs under the server's Content-Security-Policy and fails on any violation: a
 * script, style, image, media, worker or fetch the policy blocked, in any page of the journey's
 * browser context (contexts a test opens itself call watchForCspViolations).
 */
export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ context }, use) => {
      const violations = watchForCspViolations(context);
      await use();
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export function watchForCspViolations(context: BrowserContext): string[] {
  const violations: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (m) => {
      if (CSP_MESSAGE.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  void context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile || 'page'}`);
    });
  });
  return violations;
}
