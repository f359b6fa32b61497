import { ScreenPlaceholder } from './ScreenPlaceholder';

export function GroupsPage() {
  return <ScreenPlaceholder title="Groups" />;
}
