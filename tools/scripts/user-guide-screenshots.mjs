// Copies the browser tests' screenshots that docs/user-guide/README.md shows into docs/user-guide/images/.
// Run after the browser tests (npm test, or npx jest apps/web/e2e/...):
//   node tools/scripts/user-guide-screenshots.mjs [--from test-artifacts/screenshots]
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fromIndex = process.argv.indexOf('--from');
const from = path.resolve(root, fromIndex > 0 ? process.argv[fromIndex + 1] : 'test-artifacts/screenshots');
const to = path.join(root, 'docs/user-guide/images');

/** Guide image ← the screenshot a browser test saves (libs/testing saveScreenshot names). */
export const GUIDE_IMAGES = {
  'home.png': 'home-signed-out.png',
  'sign-up.png': 'journey-accounts-sign-up.png',
  'signed-up.png': 'identity-register-done.png',
  'profile.png': 'identity-profile.png',
  'accounts.png': 'identity-accounts.png',
  'credentials.png': 'identity-credentials.png',
  'workspace.png': 'workspace-anonymous.png',
  'index-files.png': 'records-index-preview-comma.png',
  'record-details.png': 'records-details-csv.png',
  'record-statistics.png': 'journey-details-statistics.png',
  'record-statistics-table.png': 'journey-details-statistics-tables.png',
  'record-statistics-no-grant.png': 'journey-details-no-grant.png',
  'record-edit.png': 'records-edit-custom.png',
  'record-derivatives.png': 'lineage-derivatives.png',
  'index-database.png': 'sources-database-tables.png',
  'index-s3.png': 'sources-s3-objects.png',
  'private-indexing.png': 'sources-private-columns.png',
  'index-database-failed.png': 'journey-sources-database-refused.png',
  'index-database-not-allowed.png': 'journey-sources-database-not-allowed.png',
  'column-selection-key-missing.png': 'journey-sources-columns-key-missing.png',
  'journey-requests-dialog.png': 'journey-requests-dialog-missing.png',
  'journey-requests-menu-count.png': 'journey-requests-menu-count.png',
  'journey-requests-mine-approved.png': 'journey-requests-mine-approved.png',
  'journey-requests-received.png': 'journey-requests-received.png',
  'journey-requests-approve.png': 'journey-requests-approve-confirm.png',
  'journey-upload-form.png': 'journey-upload-form.png',
  'journey-upload-basic.png': 'journey-upload-basic.png',
  'journey-accounts-new.png': 'journey-accounts-new.png',
  'journey-accounts-plans.png': 'journey-accounts-plans.png',
  'journey-accounts-plan-confirm.png': 'journey-accounts-plan-confirm.png',
  'merging-compare-all.png': 'journey-merging-compare-all.png',
  'merging-preview.png': 'journey-merging-preview.png',
  'merging-finished.png': 'journey-merging-finished.png',
  'merging-link-columns.png': 'journey-merging-link-columns.png',
  'journey-workspace-1366.png': 'journey-workspace-1366-screen.png',
  'journey-workspace-tooltip.png': 'journey-workspace-tooltip-screen.png',
  'journey-workspace-390.png': 'journey-workspace-390-screen.png',
  'journey-workspace-390-work-area.png': 'journey-workspace-390-work-area-screen.png',
  'journey-workspace-login-prompt.png': 'journey-workspace-login-prompt-390-screen.png',
};

mkdirSync(to, { recursive: true });
const missing = [];
for (const [image, screenshot] of Object.entries(GUIDE_IMAGES)) {
  const source = path.join(from, screenshot);
  if (existsSync(source)) copyFileSync(source, path.join(to, image));
  else missing.push(screenshot);
}
console.log(`user guide: ${Object.keys(GUIDE_IMAGES).length - missing.length} images copied from ${path.relative(root, from) || from}`);
if (missing.length) {
  console.error(`user guide: no screenshot ${missing.join(', ')} (run the browser tests that make them first)`);
  process.exitCode = 1;
}
