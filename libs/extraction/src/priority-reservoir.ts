// The numbers a column sketch keeps in block mode (csv-threads.ts): the SKETCH_RESERVOIR numbers of
// the smallest priorities, a priority being a 53-bit hash of the number's place in the file (its
// block, its position there). So whichever thread reads which block, the union of the threads'
// reservoirs keeps the same numbers.
// Once full, a number is kept only below the largest priority kept (the threshold): after the first
// SKETCH_RESERVOIR of n numbers, about SKETCH_RESERVOIR × ln(n / SKETCH_RESERVOIR) pass. Those are
// appended, and when twice the reservoir is held the smallest half is selected (quickselect) and the
// threshold lowered. A heap kept in order at every number cost a thread about a sixth of its time on
// the 100 MB file (issue 26); the numbers kept are the same.
import { mix32 } from './distinct';
import type { ReservoirState } from './table-observer';

export class PriorityReservoir {
  private priorities: Float64Array;
  private values: Float64Array;
  private held = 0;
  /** Numbers of this priority or above are not kept (Infinity until the reservoir is full). */
  private threshold = Infinity;
  private seen = 0;
  /** The kept numbers sorted, until the next number is kept (profile() and build() both ask). */
  private sorted: Float64Array | null = null;
  private block = 0;
  private position = 0;

  constructor(private readonly size: number) {
    this.priorities = new Float64Array(2 * size);
    this.values = new Float64Array(2 * size);
  }

  startBlock(index: number): void {
    this.block = mix32(index ^ 0x9e3779b9);
    this.position = 0;
  }

  add(x: number): void {
    const low = mix32(this.block ^ mix32(this.position));
    const high = mix32(low ^ this.position++ ^ 0x5bd1e995);
    this.seen++;
    this.offer((high & 0x1fffff) * 4294967296 + low, x);
  }

  /** The kept numbers and their priorities, in no order. */
  state(): ReservoirState {
    this.shrink();
    return { seen: this.seen, values: this.values.slice(0, this.held), priorities: this.priorities.slice(0, this.held) };
  }

  mergeFrom(state: ReservoirState): void {
    this.seen += state.seen;
    for (let i = 0; i < state.values.length; i++) this.offer(state.priorities[i], state.values[i]);
  }

  /** The kept numbers, ascending, and how many numbers the column had. */
  numbers(): { sorted: Float64Array; seen: number } {
    this.shrink();
    this.sorted ??= this.values.slice(0, this.held).sort();
    return { sorted: this.sorted, seen: this.seen };
  }

  private offer(priority: number, x: number): void {
    if (priority >= this.threshold) return;
    this.sorted = null;
    if (this.held === this.priorities.length) this.shrink();
    this.priorities[this.held] = priority;
    this.values[this.held++] = x;
  }

  /** Keeps the `size` smallest priorities held, and lowers the threshold to the largest of them. */
  private shrink(): void {
    if (this.held < this.size) return;
    if (this.held > this.size) this.select(this.size - 1);
    this.held = this.size;
    let largest = -Infinity;
    for (let i = 0; i < this.size; i++) if (this.priorities[i] > largest) largest = this.priorities[i];
    // Ties with the largest kept priority are dropped, as a heap keeping the smallest would drop them.
    this.threshold = largest;
  }

  /** Quickselect (Hoare): the k-th smallest priority at k, smaller ones before it, larger ones after. */
  private select(k: number): void {
    const p = this.priorities;
    let left = 0;
    let right = this.held - 1;
    while (left < right) {
      const pivot = p[(left + right) >>> 1];
      let i = left;
      let j = right;
      while (i <= j) {
        while (p[i] < pivot) i++;
        while (p[j] > pivot) j--;
        if (i <= j) {
          this.swap(i++, j--);
        }
      }
      if (k <= j) right = j;
      else if (k >= i) left = i;
      else return;
    }
  }

  private swap(a: number, b: number): void {
    const { priorities, values } = this;
    const priority = priorities[a];
    priorities[a] = priorities[b];
    priorities[b] = priority;
    const value = values[a];
    values[a] = values[b];
    values[b] = value;
  }
}
