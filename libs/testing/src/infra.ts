/**
 * Infrastructure-dependent suites declare what they need. Where it is missing the suite is
 * skipped with a loud message, except under CI=true, where a skipped infrastructure suite is a
 * failure (CI installs and starts what the tests need).
 */
export function describeInfra(name: string, available: boolean | string, body: () => void, options: { allowSkipInCi?: boolean } = {}): void {
  const missing = available === true ? undefined : typeof available === 'string' ? available : `${name} is not available`;
  if (!missing) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true' && !options.allowSkipInCi) {
    describe(name, () => {
      it('has its infrastructure available (CI=true forbids skipping)', () => {
        throw new Error(`SKIPPED INFRASTRUCTURE under CI: ${missing}`);
      });
    });
    return;
  }
  console.warn(`SKIPPED: ${name}: ${missing}`);
  describe.skip(`${name} (SKIPPED: ${missing})`, body);
}
