import { Workspace } from '../workspace/Workspace';

/** #/records: the Workspace. */
export function RecordsPage() {
  return <Workspace />;
}
