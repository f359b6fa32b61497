import { ScreenPlaceholder } from './ScreenPlaceholder';

export function JobsPage() {
  return <ScreenPlaceholder title="Backend Jobs" />;
}
