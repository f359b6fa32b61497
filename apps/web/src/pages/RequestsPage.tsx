import { ScreenPlaceholder } from './ScreenPlaceholder';

export function RequestsPage() {
  return <ScreenPlaceholder title="Requests" />;
}
