// Runs the export-baked-shape corpus models in ONNX Runtime at the example size and at others,
// to show what a baked size does at run time (not part of the test suite). In a scratch folder
// outside the repository:
//   npm install --ignore-scripts onnxruntime-node@1.30.0
//   node /path/to/tests/data/corpus/check_baked_shapes_ort.js
const ort = require('onnxruntime-node');
const dir = __dirname + '/';
async function run(file, feeds) {
  try {
    const s = await ort.InferenceSession.create(dir + file);
    const out = await s.run(feeds);
    const r = {};
    for (const k of Object.keys(out)) r[k] = out[k].dims;
    console.log(file, JSON.stringify(Object.fromEntries(Object.entries(feeds).map(([k,v])=>[k,v.dims]))), '->', JSON.stringify(r));
  } catch (e) { console.log(file, JSON.stringify(Object.fromEntries(Object.entries(feeds).map(([k,v])=>[k,v.dims]))), 'FAILS:', String(e.message).split('\n')[0]); }
}
const t = (dims) => new ort.Tensor('float32', new Float32Array(dims.reduce((a,b)=>a*b,1)), dims);
(async () => {
  await run('torch_baked_view_batch_op13.onnx', {x: t([2,4,4])});
  await run('torch_baked_view_batch_op13.onnx', {x: t([3,4,4])});
  await run('torch_baked_view_batch_op13.onnx', {x: t([4,4,4])});
  await run('torch_baked_loop_dynamic_axis_op13.onnx', {x: t([2,3,8])});
  await run('torch_baked_loop_dynamic_axis_op13.onnx', {x: t([2,5,8])});
  await run('torch_baked_loop_dynamic_axis_op13.onnx', {x: t([2,2,8])});
  await run('torch_baked_split_sizes_op13.onnx', {x: t([2,6,8])});
  await run('torch_baked_split_sizes_op13.onnx', {x: t([2,8,8])});
  await run('torch_baked_expand_cls_op13.onnx', {x: t([2,6,8])});
  await run('torch_baked_expand_cls_op13.onnx', {x: t([3,6,8])});
  await run('torch_baked_ones_batch_op13.onnx', {x: t([2,16])});
  await run('torch_baked_ones_batch_op13.onnx', {x: t([3,16])});
  await run('torch_dynamic_layers_reshape_clean_op13.onnx', {x: t([5,4,4])});
  await run('torch_dynamic_kv_cache_clean_op13.onnx', {x: t([3,2,8]), past_k: t([3,7,8]), past_v: t([3,7,8])});
})();
