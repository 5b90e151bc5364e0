// SPDX-License-Identifier: GPL-3.0-or-later
// Runs ONNX models with ONNX Runtime (onnxruntime-node from npm, CPU) for
// onnx_runtime_compare.py and torch_export_compare.py: reads a JSON manifest [{"path", "shape",
// "dtype"}] from the file named by argv[2], feeds each model's input "x" with arange(shape) of
// dtype int64 (the default) or float32, and prints one JSON line per model: {"shape", "data"} of
// its first output and "outputs", every output's {"shape", "data"}; or {"error"}.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  for (const c of cases) {
    let line;
    try {
      const n = c.shape.reduce((a, b) => a * b, 1);
      const x = c.dtype === 'float32'
          ? new ort.Tensor('float32', Float32Array.from({length: n}, (_, i) => i), c.shape)
          : new ort.Tensor('int64', BigInt64Array.from({length: n}, (_, i) => BigInt(i)),
                           c.shape);
      const session = await ort.InferenceSession.create(c.path);
      const out = await session.run({x});
      const outputs = session.outputNames.map(
          (name) => ({shape: Array.from(out[name].dims),
                      data: Array.from(out[name].data, (v) => Number(v))}));
      line = {shape: outputs[0].shape, data: outputs[0].data, outputs};
    } catch (e) {
      line = {error: String(e.message || e).split('\n')[0]};
    }
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}

main();
