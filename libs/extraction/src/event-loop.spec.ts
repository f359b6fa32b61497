// A large CSV must not hold the event loop for the whole extraction: a server keeps answering.
import { extract } from './spec-support.fixture';

it('lets other callbacks run while a CSV of many chunks is profiled', async () => {
  const lines = ['id,amount,comment'];
  for (let i = 0; i < 60_000; i++) lines.push(`${i},${(i * 1.37).toFixed(2)},"word${i % 97} other${i % 13}, more"`);
  let turns = 0;
  let running = true;
  const spin = (): void => {
    turns++;
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  const before = turns;
  const result = await extract(lines.join('\n'), 'big.csv');
  const during = turns - before;
  running = false;
  expect(result.FILE?.TOTAL_ROWS).toBe(60_000);
  expect(during).toBeGreaterThan(1);
});
