// Preloaded into the product by profile.bench.ts with PROFILE=1 (or PROFILE=heap, retained or promoted): SIGWINCH starts
// V8's CPU profiler (or its sampling heap profiler, every allocation counted, collected or not), the
// next SIGWINCH stops it and writes PROF_DIR/<n>.cpuprofile (or <n>.heapprofile) (SIGUSR2 would stop
// Nest: it is one of its shutdown signals).
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

// 'retained': only what is still reachable after a full collection at the end (what a period left behind).
// 'promoted': what survived the young generation's collections (moved to the old generation), collected later or not.
const heap = ['heap', 'retained', 'promoted'].includes(process.env.PROF_KIND);
const retained = process.env.PROF_KIND === 'retained';
const promoted = process.env.PROF_KIND === 'promoted';
const session = new inspector.Session();
session.connect();
let running = false;
let taken = 0;
process.on('SIGWINCH', () => {
  running = !running;
  if (running) {
    if (heap)
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: !retained,
        includeObjectsCollectedByMinorGC: !retained && !promoted,
      });
    else session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 100 }, () => session.post('Profiler.start')));
    return;
  }
  const done = (error, result) => {
    const file = path.join(process.env.PROF_DIR, `${taken++}.${heap ? 'heapprofile' : 'cpuprofile'}`);
    if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
    fs.writeFileSync(path.join(process.env.PROF_DIR, `${taken - 1}.cpuprofile.done`), '');
  };
  if (retained) session.post('HeapProfiler.collectGarbage', () => session.post('HeapProfiler.stopSampling', done));
  else if (heap) session.post('HeapProfiler.stopSampling', done);
  else session.post('Profiler.stop', done);
});
