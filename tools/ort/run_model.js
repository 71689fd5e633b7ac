// Runs one model in ONNX Runtime (npm onnxruntime-node) on constant-filled inputs and prints
// the dims of the requested outputs as JSON. Input: a JSON file
//   {"model": path, "feeds": {name: {"type": TensorProto.DataType, "dims": [...]}},
//    "outputs": [...], "values": [...]}
// and prints {name: {"dims": [...], "data"?: [...]}} (data for the names in "values").
// Used by check_fixed_dims.py, which points NODE_PATH at a folder where onnxruntime-node is
// installed (npm install --ignore-scripts onnxruntime-node@1.30.0).
const ort = require('onnxruntime-node');
const spec = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
const make = (type, dims) => {
  const n = dims.reduce((a, b) => a * b, 1);
  if (type === 1) return new ort.Tensor('float32', Float32Array.from({length: n}, () => Math.random()), dims);
  if (type === 7) return new ort.Tensor('int64', BigInt64Array.from({length: n}, () => 1n), dims);
  if (type === 6) return new ort.Tensor('int32', Int32Array.from({length: n}, () => 1), dims);
  if (type === 9) return new ort.Tensor('bool', Uint8Array.from({length: n}, () => 1), dims);
  throw new Error('unsupported input type ' + type);
};
(async () => {
  const session = await ort.InferenceSession.create(spec.model);
  const feeds = {};
  for (const [name, v] of Object.entries(spec.feeds)) feeds[name] = make(v.type, v.dims);
  const outs = await session.run(feeds, spec.outputs.filter(o => session.outputNames.includes(o)));
  const result = {};
  const wanted = new Set(spec.values || []);
  for (const name of Object.keys(outs)) {
    result[name] = {dims: outs[name].dims};
    // Small integer outputs whose contents are asked for: their elements, as numbers.
    if (wanted.has(name) && outs[name].size <= 64) {
      result[name].data = Array.from(outs[name].data, v => v.toString());  // int64 exactly
    }
  }
  console.log(JSON.stringify(result));
})().catch(e => { console.error(String(e.message)); process.exit(1); });
