#!/usr/bin/env node
// Runs an ONNX model on ONNX Runtime (the onnxruntime-node package, CPU) and writes every output
// as NumPy .npy: the reference outputs for `make test-models`.
//
//   node scripts/ort-reference.js MODEL.onnx OUT_DIR NAME=INPUT.npy [NAME=INPUT.npy ...]
//
// writes OUT_DIR/<output name>.npy per output and OUT_DIR/output.npy for the first one. The
// package is found through NODE_PATH (make test-models installs it under the build folder with
// `npm install --ignore-scripts onnxruntime-node`; it carries its CPU library).
'use strict';

const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const {readNpy, writeNpy} = require('./npy.js');

async function main() {
  const [model, outDir, ...inputs] = process.argv.slice(2);
  if (!model || !outDir) {
    console.error('usage: ort-reference.js MODEL.onnx OUT_DIR NAME=INPUT.npy ...');
    process.exit(2);
  }
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    graphOptimizationLevel: 'disabled',
  });
  const feeds = {};
  for (const spec of inputs) {
    const at = spec.indexOf('=');
    feeds[spec.slice(0, at)] = readNpy(spec.slice(at + 1));
  }
  const results = await session.run(feeds);
  fs.mkdirSync(outDir, {recursive: true});
  session.outputNames.forEach((name, i) => {
    const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
    writeNpy(path.join(outDir, safe + '.npy'), results[name]);
    if (i === 0) writeNpy(path.join(outDir, 'output.npy'), results[name]);
  });
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
