import { createContext, type DragEvent, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

/** A record in the work area (the drag-and-drop bin of the Workspace). */
export interface WorkAreaRecord {
  id: string;
  name: string;
  type?: string | null;
  size?: number | null;
  date_changed?: string | null;
  /** Headers of its hashed columns: linking needs two records that have some. */
  enc_headers?: string[];
}

interface WorkArea {
  records: WorkAreaRecord[];
  add(record: WorkAreaRecord): void;
  remove(id: string): void;
  clear(): void;
  has(id: string): boolean;
}

const KEY = 'dc.workArea';
/** The drag payload type of a record card. */
export const RECORD_DRAG_TYPE = 'application/x-dc-record';

function load(): WorkAreaRecord[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as WorkAreaRecord[]).filter((r) => r && typeof r.id === 'string') : [];
  } catch {
    return [];
  }
}

/** What the work area keeps of a record (a card's or a row's full data is more than it needs). */
export function toAreaRecord(record: WorkAreaRecord): WorkAreaRecord {
  return { id: record.id, name: record.name, type: record.type, size: record.size, date_changed: record.date_changed, enc_headers: record.enc_headers ?? [] };
}

const Context = createContext<WorkArea | null>(null);

/** Keeps the work area's records for the tab's session (they survive a reload, not a new tab). */
export function WorkAreaProvider({ children }: { children: ReactNode }) {
  const [records, setRecords] = useState<WorkAreaRecord[]>(load);
  const save = useCallback((next: WorkAreaRecord[]) => {
    setRecords(next);
    try {
      sessionStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // Only this page keeps it.
    }
  }, []);
  const value = useMemo<WorkArea>(
    () => ({
      records,
      add: (record) => {
        if (!records.some((r) => r.id === record.id)) save([...records, toAreaRecord(record)]);
      },
      remove: (id) => save(records.filter((r) => r.id !== id)),
      clear: () => save([]),
      has: (id) => records.some((r) => r.id === id),
    }),
    [records, save],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useWorkArea(): WorkArea {
  const value = useContext(Context);
  if (!value) throw new Error('useWorkArea needs a WorkAreaProvider');
  return value;
}

/** A place cards are dropped into the work area (its side panel, or its bar on narrow screens): whether one is held over it, and its drag handlers. */
export function useRecordDropTarget() {
  const area = useWorkArea();
  const [over, setOver] = useState(false);
  const dropProps = {
    onDragOver(event: DragEvent) {
      if (!event.dataTransfer.types.includes(RECORD_DRAG_TYPE)) return;
      event.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop(event: DragEvent) {
      event.preventDefault();
      setOver(false);
      const raw = event.dataTransfer.getData(RECORD_DRAG_TYPE);
      if (!raw) return;
      try {
        area.add(JSON.parse(raw) as WorkAreaRecord);
      } catch {
        // Not one of our cards.
      }
    },
  };
  return { over, dropProps };
}
