import { ScreenPlaceholder } from './ScreenPlaceholder';

export function AccessPoliciesPage() {
  return <ScreenPlaceholder title="Access Policies" />;
}
