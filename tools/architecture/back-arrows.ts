// Which imports run "back up" between the folders of one app: draw the folders (and the files
// directly in the app's root) as boxes, order them so that as many imports as possible point one
// way, and count the folder-to-folder arrows that must still point the other way. Zero means the
// folders form layers: a feature can be read, tested and moved with only what sits below it.
// Usage: node tools/scripts/run-ts.cjs tools/architecture/back-arrows.ts apps/catalogue/src/app ...
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Arrow {
  from: string;
  to: string;
  /** How many imports (file to file) the arrow stands for. */
  imports: number;
}

const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.(spec|e2e-spec)\.tsx?$|\/testing\//;
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(name) && !TEST.test(full) ? [full] : [];
  });
}

/** The box a file belongs to: its top folder under root, or the file itself when it sits in root. */
function boxOf(root: string, file: string): string {
  const [first, ...rest] = path.relative(root, file).split(path.sep);
  return rest.length ? `${first}/` : first.replace(SOURCE, '');
}

/** Folder-to-folder import arrows inside root (tests and test helpers left out). */
export function arrowsOf(root: string): Arrow[] {
  const counts = new Map<string, number>();
  for (const file of sourceFiles(root)) {
    const from = boxOf(root, file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1]);
      if (!target.startsWith(root + path.sep)) continue;
      const to = boxOf(root, existsSync(target) && statSync(target).isDirectory() ? path.join(target, 'index.ts') : target);
      if (to !== from) counts.set(`${from}\0${to}`, (counts.get(`${from}\0${to}`) ?? 0) + 1);
    }
  }
  return [...counts].map(([key, imports]) => {
    const [from, to] = key.split('\0');
    return { from, to, imports };
  });
}

/**
 * Orders the boxes with Eades, Lin and Smyth's greedy heuristic for the feedback arc set (sinks to
 * the bottom, sources to the top, then the box with most more arrows out than in) and answers the
 * arrows that point up against that order. For an acyclic graph the answer is always empty.
 */
export function backArrows(arrows: Arrow[]): Arrow[] {
  const boxes = new Set(arrows.flatMap((a) => [a.from, a.to]));
  const left = new Set(boxes);
  const top: string[] = [];
  const bottom: string[] = [];
  const live = () => arrows.filter((a) => left.has(a.from) && left.has(a.to));
  while (left.size) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const box of [...left].sort()) {
        const current = live();
        if (!current.some((a) => a.from === box)) {
          bottom.unshift(box);
          left.delete(box);
          changed = true;
        } else if (!current.some((a) => a.to === box)) {
          top.push(box);
          left.delete(box);
          changed = true;
        }
      }
    }
    if (!left.size) break;
    const current = live();
    const weight = (box: string, side: 'from' | 'to') => current.filter((a) => a[side] === box).reduce((sum, a) => sum + a.imports, 0);
    const best = [...left].sort((a, b) => weight(b, 'from') - weight(b, 'to') - (weight(a, 'from') - weight(a, 'to')) || a.localeCompare(b))[0];
    top.push(best);
    left.delete(best);
  }
  const rank = new Map([...top, ...bottom].map((box, i) => [box, i]));
  return arrows.filter((a) => rank.get(a.from)! > rank.get(a.to)!).sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

if (process.argv[1] === __filename) {
  for (const root of process.argv.slice(2)) {
    const back = backArrows(arrowsOf(path.resolve(root)));
    console.log(`${root}: ${back.length} back arrow(s)`);
    for (const arrow of back) console.log(`  ${arrow.from} -> ${arrow.to} (${arrow.imports} import${arrow.imports === 1 ? '' : 's'})`);
  }
}
