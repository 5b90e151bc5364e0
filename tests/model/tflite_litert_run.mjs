// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the .tflite files of make_tflite_files.py's manifest in LiteRT.js (@litertjs/core: TFLite's
// runtime compiled to WebAssembly) under Node.js, on the CPU, and writes what each one outputs.
//
//   node tflite_litert_run.mjs LITERT_DIR MANIFEST OUT.json
//
// LITERT_DIR is the folder @litertjs/core was installed into (npm install --prefix LITERT_DIR).
// Each run-time input gets 0, 1, 2, ... in row-major order, as SliceScope's arange fill does.
// OUT.json maps each case to {"outputs": [{"dtype", "shape", "data"}]} or {"error": "..."}.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import {createRequire} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';

const [litertDir, manifestPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: node tflite_litert_run.mjs LITERT_DIR MANIFEST OUT.json');
  process.exit(2);
}
const corePackage = path.join(litertDir, 'node_modules', '@litertjs', 'core');

// LiteRT.js loads its WebAssembly glue as a browser script (a <script> tag, or importScripts in
// a worker). Under Node.js the worker path is given: importScripts runs the script in this
// context, where the Emscripten glue finds Node's require for reading the .wasm file.
globalThis.self = globalThis;
globalThis.require = createRequire(import.meta.url);
globalThis.importScripts = (url) => {
  const file = fileURLToPath(url);
  globalThis.__filename = file;
  globalThis.__dirname = path.dirname(file);
  vm.runInThisContext(fs.readFileSync(file, 'utf8'), {filename: file});
};
// Quiet the runtime's INFO lines on stderr (they are not errors).
const {loadLiteRt, loadAndCompile, Tensor} =
    await import(pathToFileURL(path.join(corePackage, 'dist', 'index.js')).href);
await loadLiteRt(pathToFileURL(path.join(corePackage, 'wasm') + '/').href);

const arrays = {
  int32: Int32Array,
  int64: BigInt64Array,
  float32: Float32Array,
};

const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const results = {};
for (const c of manifest) {
  if (!c.runtime) continue;
  const inputs = [];
  try {
    const model = await loadAndCompile(new Uint8Array(fs.readFileSync(c.file)),
                                       {accelerator: 'wasm'});
    for (const input of c.inputs) {
      const n = input.shape.reduce((a, b) => a * b, 1);
      const Array = arrays[input.dtype];
      const data = new Array(n);
      for (let i = 0; i < n; ++i) data[i] = input.dtype === 'int64' ? BigInt(i) : i;
      inputs.push(new Tensor(data, input.shape));
    }
    const outputs = await model.run(inputs);
    results[c.name] = {
      outputs: outputs.map((t) => ({
        dtype: t.type.dtype,
        shape: Array.from(t.type.layout.dimensions),
        data: Array.from(t.toTypedArray(), (v) => (typeof v === 'bigint' ? Number(v) : v)),
      })),
    };
    for (const t of outputs) t.delete();
    model.delete();
  } catch (e) {
    results[c.name] = {error: String(e && e.message ? e.message : e)};
  }
  for (const t of inputs) t.delete();
}
fs.writeFileSync(outPath, JSON.stringify(results, null, 1));
const failed = Object.entries(results).filter(([, r]) => r.error).map(([k]) => k);
console.log(`${Object.keys(results).length} files run in LiteRT.js; ` +
            `${failed.length} refused${failed.length ? ': ' + failed.join(', ') : ''}`);
