#!/usr/bin/env node
// ONNX Runtime's inference time on a model, for the evaluator comparison of `make bench`
// (docs/performance.md): the onnxruntime-node package (CPU execution provider), one session per
// thread count, graph optimizations at their default (all), a seeded uniform [-1, 1) input.
//
//   node bench/ort_bench.js MODEL.onnx OUT.json [REPEATS] [THREADS...] [NAME=INPUT.npy ...]
//
// With NAME=INPUT.npy arguments the model is fed those arrays (scripts/npy.js); without, its
// first input is the 1x3x224x224 image below.
// writes {"model", "runs": [{"threads", "best_ms", "mean_ms", "repeats"}], "output_head": [...]}
// (the first outputs' first values, for checking that both runtimes computed the same thing).
// With ORT_BENCH_OUTPUT=FILE.npy in the environment, the last session's whole first output is
// also written there (bench/int8_resnet_bench.py compares it with relaypass's).
'use strict';

const fs = require('fs');
const ort = require('onnxruntime-node');

// The feeds named on the command line, read from .npy files.
function npyFeeds(specs) {
  const {readNpy} = require('../scripts/npy.js');
  const feeds = {};
  for (const spec of specs) {
    const at = spec.indexOf('=');
    feeds[spec.slice(0, at)] = readNpy(spec.slice(at + 1));
  }
  return feeds;
}

// The seeded image the CNN rows use.
function imageFeed(session) {
  const input = session.inputNames[0];
  // The input's shape from the model (ONNX Runtime's metadata is not exposed in every
  // version): ResNet/MobileNet take 1x3x224x224.
  const shape = [1, 3, 224, 224];
  const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
  // Numerical Recipes' 32-bit LCG (exact in JS with Math.imul; eval_bench.cc has the same).
  let state = 12345;
  for (let i = 0; i < data.length; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = state / 2147483648 - 1;
  }
  return { [input]: new ort.Tensor('float32', data, shape) };
}

async function main() {
  const [model, out, repeatsArg, ...rest] = process.argv.slice(2);
  const repeats = Number(repeatsArg || 10);
  const threadArgs = rest.filter((a) => !a.includes('='));
  const inputArgs = rest.filter((a) => a.includes('='));
  const threads = threadArgs.length ? threadArgs.map(Number) : [1, 2];
  const result = { model, runs: [], ort_version: require('onnxruntime-node/package.json').version };
  for (const n of threads) {
    const session = await ort.InferenceSession.create(model, {
      intraOpNumThreads: n, interOpNumThreads: 1, executionMode: 'sequential' });
    const feeds = inputArgs.length ? npyFeeds(inputArgs) : imageFeed(session);
    await session.run(feeds);  // warm-up
    const times = [];
    let outputs = null;
    for (let r = 0; r < repeats; ++r) {
      const start = process.hrtime.bigint();
      outputs = await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    result.runs.push({ threads: n, best_ms: Math.min(...times),
      mean_ms: times.reduce((a, b) => a + b, 0) / times.length, repeats });
    const first = outputs[session.outputNames[0]].data;
    result.output_head = Array.from(first.slice(0, 8));
    if (process.env.ORT_BENCH_OUTPUT) {
      require('../scripts/npy.js').writeNpy(process.env.ORT_BENCH_OUTPUT,
                                            outputs[session.outputNames[0]]);
    }
  }
  fs.writeFileSync(out, JSON.stringify(result, null, 1));
}

main().catch((e) => { console.error('ort_bench: ' + e.message); process.exit(1); });
