// Loads models in ONNX Runtime (npm onnxruntime-node, CPU execution provider) and, when asked,
// runs them on random inputs of given sizes, printing the output dims. One Node process serves a
// whole batch, so the caller pays Node's and ORT's start-up once.
//
//   node run_model.js SPEC.json
//
// SPEC: {"jobs": [{"id": any, "model": path,
//                  "runs"?: [{"feeds": {name: {"type": TensorProto.DataType, "dims": [...],
//                                              "high"?: N}},
//                             "seed"?: N}],
//                  "outputs"?: [...], "values"?: [...]}]}
// A job without "runs" only creates the session (the load verdict). Prints one JSON line per job:
//   {"id", "loaded": bool, "error"?: first line of ORT's message,
//    "runs"?: [{"ok": bool, "error"?, "outputs"?: {name: {"dims": [...], "data"?: [...]}}}]}
// "outputs" restricts the fetched outputs (default: every graph output); "values" names small
// integer outputs whose elements are printed (as exact decimal strings, int64 included).
// Inputs are pseudo-random from "seed" (default 1): floats in [0, 1), integers in [1, high)
// (default high 3), booleans 0/1. NODE_PATH must name a node_modules holding onnxruntime-node
// (tests/ort installs it into the build tree; see docs/ort-oracle.md).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

// mulberry32: a small seeded generator, so a run's data is reproducible.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FLOAT_TYPES = {1: ['float32', Float32Array], 11: ['float64', Float64Array]};
const INT_TYPES = {
  2: ['uint8', Uint8Array], 3: ['int8', Int8Array], 4: ['uint16', Uint16Array],
  5: ['int16', Int16Array], 6: ['int32', Int32Array], 12: ['uint32', Uint32Array],
};

function makeTensor(spec, next) {
  const dims = spec.dims;
  const n = dims.reduce((a, b) => a * b, 1);
  // Integers from 1: a 0 would make integer Div/Mod kernels divide by zero (SIGFPE).
  const high = spec.high === undefined ? 3 : spec.high;
  const int = () => 1 + Math.floor(next() * (high - 1));
  const t = spec.type;
  if (FLOAT_TYPES[t]) {
    const [name, Arr] = FLOAT_TYPES[t];
    return new ort.Tensor(name, Arr.from({length: n}, next), dims);
  }
  if (t === 10) {
    // float16: the binding takes the raw bits; random halves in [0, 1).
    const bits = Uint16Array.from({length: n}, () => 0x3800 + Math.floor(next() * 0x400));
    return new ort.Tensor('float16', bits, dims);
  }
  if (INT_TYPES[t]) {
    const [name, Arr] = INT_TYPES[t];
    return new ort.Tensor(name, Arr.from({length: n}, int), dims);
  }
  if (t === 7) return new ort.Tensor('int64', BigInt64Array.from({length: n}, () => BigInt(int())), dims);
  if (t === 13) return new ort.Tensor('uint64', BigUint64Array.from({length: n}, () => BigInt(int())), dims);
  if (t === 9) return new ort.Tensor('bool', Uint8Array.from({length: n}, () => (next() < 0.5 ? 1 : 0)), dims);
  if (t === 8) return new ort.Tensor('string', Array.from({length: n}, () => 'a'), dims);
  throw new Error('unsupported input type ' + t);
}

const firstLine = (e) => String(e && e.message !== undefined ? e.message : e).split('\n')[0];

async function runOnce(session, job, run) {
  const next = rng(run.seed === undefined ? 1 : run.seed);
  const feeds = {};
  for (const [name, v] of Object.entries(run.feeds || {})) feeds[name] = makeTensor(v, next);
  const names = job.outputs ? job.outputs.filter((o) => session.outputNames.includes(o))
                            : session.outputNames;
  const outs = await session.run(feeds, names);
  const wanted = new Set(job.values || []);
  const result = {};
  for (const name of Object.keys(outs)) {
    const t = outs[name];
    result[name] = {dims: t.dims};
    if (wanted.has(name) && t.size <= 64 && t.type !== 'string') {
      result[name].data = Array.from(t.data, (v) => v.toString());
    }
    if (typeof t.dispose === 'function') t.dispose();
  }
  return result;
}

async function runJob(job) {
  let session;
  try {
    // One thread: the verdicts and outputs do not depend on it, and ORT 1.16 and 1.17 spend
    // about 30 ms creating each session's thread pool otherwise (7 000 models: 3.5 minutes).
    session = await ort.InferenceSession.create(job.model,
                                                {intraOpNumThreads: 1, interOpNumThreads: 1});
  } catch (e) {
    return {id: job.id, loaded: false, error: firstLine(e)};
  }
  const out = {id: job.id, loaded: true};
  if (job.runs) {
    out.runs = [];
    for (const run of job.runs) {
      try {
        out.runs.push({ok: true, outputs: await runOnce(session, job, run)});
      } catch (e) {
        out.runs.push({ok: false, error: firstLine(e)});
      }
    }
  }
  if (typeof session.release === 'function') await session.release();
  return out;
}

(async () => {
  const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  for (const job of spec.jobs) console.log(JSON.stringify(await runJob(job)));
})().catch((e) => { console.error(firstLine(e)); process.exit(1); });
