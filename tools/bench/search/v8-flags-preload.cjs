// Sets the V8 flags in BENCH_V8_FLAGS (for example --trace-gc) in a product process started by a
// benchmark: NODE_OPTIONS refuses most V8 flags, and the product is started by its main script.
const flags = process.env.BENCH_V8_FLAGS;
if (flags) require('node:v8').setFlagsFromString(flags);
