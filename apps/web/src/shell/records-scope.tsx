import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { SegmentGroup } from '@chakra-ui/react';

/** The own/all records toggle of the top bar: the user's own records or every visible record. */
export type RecordsScope = 'own' | 'all';

const SCOPE_KEY = 'dc.recordsScope';

interface RecordsScopeState {
  scope: RecordsScope;
  setScope(scope: RecordsScope): void;
}

const RecordsScopeContext = createContext<RecordsScopeState | null>(null);

function readScope(): RecordsScope {
  try {
    return localStorage.getItem(SCOPE_KEY) === 'own' ? 'own' : 'all';
  } catch {
    return 'all';
  }
}

export function RecordsScopeProvider({ children }: { children: ReactNode }) {
  const [scope, setScopeState] = useState<RecordsScope>(readScope);
  const setScope = useCallback((next: RecordsScope) => {
    setScopeState(next);
    try {
      localStorage.setItem(SCOPE_KEY, next);
    } catch {
      // Not remembered across visits; the toggle still works for this one.
    }
  }, []);
  const value = useMemo(() => ({ scope, setScope }), [scope, setScope]);
  return <RecordsScopeContext.Provider value={value}>{children}</RecordsScopeContext.Provider>;
}

export function useRecordsScope(): RecordsScopeState {
  const state = useContext(RecordsScopeContext);
  if (!state) throw new Error('useRecordsScope must be used inside <RecordsScopeProvider>');
  return state;
}

/** The own/all switch bound to the shared scope, so the top bar's and the Workspace's stay in step. */
export function RecordsScopeToggle({ label, ownLabel, allLabel }: { label: string; ownLabel: string; allLabel: string }) {
  const { scope, setScope } = useRecordsScope();
  return (
    <SegmentGroup.Root
      size="sm"
      aria-label={label}
      value={scope}
      onValueChange={(details) => details.value && setScope(details.value === 'own' ? 'own' : 'all')}
    >
      <SegmentGroup.Indicator />
      <SegmentGroup.Items
        items={[
          { value: 'own', label: ownLabel },
          { value: 'all', label: allLabel },
        ]}
      />
    </SegmentGroup.Root>
  );
}
