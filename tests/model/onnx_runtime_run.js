// SPDX-License-Identifier: GPL-3.0-or-later
// Runs ONNX models with ONNX Runtime (onnxruntime-node from npm, CPU) for
// onnx_runtime_compare.py: reads a JSON manifest [{"path", "shape"}] from the file named by
// argv[2], feeds each model's input "x" with int64 arange(shape), and prints one JSON line per
// model: {"shape", "data"} or {"error"}.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  for (const c of cases) {
    let line;
    try {
      const n = c.shape.reduce((a, b) => a * b, 1);
      const data = BigInt64Array.from({length: n}, (_, i) => BigInt(i));
      const session = await ort.InferenceSession.create(c.path);
      const out = await session.run({x: new ort.Tensor('int64', data, c.shape)});
      const y = out[session.outputNames[0]];
      line = {shape: Array.from(y.dims), data: Array.from(y.data, (v) => Number(v))};
    } catch (e) {
      line = {error: String(e.message || e).split('\n')[0]};
    }
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}

main();
