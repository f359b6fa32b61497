// Preloaded into the product by profile.bench.ts with PROFILE=1: SIGWINCH starts V8's CPU profiler,
// the next SIGWINCH stops it and writes PROF_DIR/<n>.cpuprofile (SIGUSR2 would stop Nest: it is one
// of its shutdown signals).
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const session = new inspector.Session();
session.connect();
let running = false;
let taken = 0;
process.on('SIGWINCH', () => {
  running = !running;
  if (running) {
    session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 100 }, () => session.post('Profiler.start')));
    return;
  }
  session.post('Profiler.stop', (error, result) => {
    const file = path.join(process.env.PROF_DIR, `${taken++}.cpuprofile`);
    if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
    fs.writeFileSync(`${file}.done`, '');
  });
});
