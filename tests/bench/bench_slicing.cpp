// SPDX-License-Identifier: GPL-3.0-or-later
// bench_slicing: the copy engine on 16M-64M-element tensors (mostly float32), against TensorFlow's
// own kernel expressions (Eigen, engine/eigen), against NumPy doing the same work (materialised,
// and into a preallocated output) and against the streaming bound, the time memcpy on this machine
// needs to move the bytes that must move. Everything is measured in one run; see README.md.
#include "bench_common.h"
#include "core/decode.h"
#include "core/executor.h"
#include "core/op.h"
#include "core/plan.h"
#include "core/slice_expr.h"
#include "core/tensor.h"
#include "eigen/eigen_kernels.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ss;
using namespace ss::bench;

namespace {

struct IndexArray
{
    std::string name;
    std::int64_t count = 0;
    std::int64_t rows = 0; // values are (i * 7919) % rows
};

struct Workload
{
    std::string name;
    std::string op;
    std::vector<std::pair<std::string, Shape>> arrays; // arrays of `dtype`, in fill order
    std::vector<IndexArray> indices;
    std::vector<std::vector<std::string>> inputs; // the arrays each op input takes
    Attrs attrs;
    std::string numpy; // materialising NumPy expression over the same arrays
    // The same into a preallocated `out` of the result's shape ("" where NumPy has no such form).
    std::string numpyOut;
    // TensorFlow's kernel expression for it (null where TensorFlow's kernel is not an Eigen
    // expression: gather, space_to_batch_nd, depth_to_space are loops of their own).
    std::function<Tensor(const EigenKernels&, const std::map<std::string, Tensor>&)> eigen;
    DType dtype = DType::Float32;
    // Target for engine ms / bound ms.
    double boundTarget = 1.5;
};

using Arrays = std::map<std::string, Tensor>;

Attr pairs(std::vector<std::vector<std::int64_t>> rows)
{
    Attr::List list;
    for (const auto& r : rows)
        list.push_back(Attr::ints(r));
    return Attr(list);
}

// A workload on one input, x.
Workload unary(std::string name, std::string op, const Shape& shape, Attrs attrs, std::string numpy,
               std::string numpyOut = "", decltype(Workload::eigen) eigen = nullptr,
               DType dtype = DType::Float32)
{
    return {
        std::move(name),  std::move(op),       {{"x", shape}},   {},   {{"x"}}, std::move(attrs),
        std::move(numpy), std::move(numpyOut), std::move(eigen), dtype};
}

// A 4096 x 4096 transpose of 1- and 2-byte elements: their own block kernels.
Workload narrowTranspose(DType dtype)
{
    // Issue 12's target for these: within 4x of the bound (a line of output gathers 32 or 64
    // source rows).
    Workload w = unary(
        std::string("transpose 4096x4096 ") + std::string(dtypeName(dtype)), "transpose",
        {4096, 4096}, {{"perm", Attr::ints({1, 0})}}, "np.ascontiguousarray(x.T)",
        "np.copyto(out, x.T)",
        [](const EigenKernels& k, const Arrays& a) {
            return k.transpose(a.at("x"), {1, 0});
        },
        dtype);
    w.boundTarget = 4;
    return w;
}

// Reversal of the inner (contiguous) axis of 1- and 2-byte elements.
Workload narrowReverse(DType dtype)
{
    return unary(
        std::string("reverse 4096x4096 axis 1 ") + std::string(dtypeName(dtype)), "reverse",
        {4096, 4096}, {{"axis", Attr::ints({1})}}, "np.flip(x, 1).copy()",
        "np.copyto(out, np.flip(x, 1))",
        [](const EigenKernels& k, const Arrays& a) {
            return k.reverse(a.at("x"), {false, true});
        },
        dtype);
}

Workload slicing(const std::string& expr, const Shape& shape)
{
    std::string dims;
    for (std::int64_t d : shape)
        dims += (dims.empty() ? "" : "x") + std::to_string(d);
    // The kernel gets ValidateStridedSliceOp's result, as TensorFlow's does.
    auto eigen = [expr](const EigenKernels& k, const Arrays& a) {
        const Tensor& x = a.at("x");
        StridedSliceDecode d;
        std::vector<Step> steps;
        decodeStridedSlice(x.shape(), encodeExpression(expr).sparse, d, steps);
        return k.stridedSlice(x, d);
    };
    return unary(expr + " on " + dims, "getitem", shape, {{"expr", Attr(expr)}}, expr + ".copy()",
                 "np.copyto(out, " + expr + ")", eigen);
}

std::vector<Workload> workloads()
{
    return {
        slicing("x[::2, ::-1]", {8192, 8192}),
        slicing("x[1:-1, 1:-1]", {8192, 8192}),
        slicing("x[..., None, ::3]", {4096, 4096}),
        slicing("x[:, :, ::-1, :]", {16, 64, 256, 256}),
        slicing("x[1024:7168, 2048:6144]", {8192, 8192}),
        // A small result (1 MiB): what it costs is getting its memory, not moving it.
        slicing("x[7]", {64, 64, 64, 64}),
        unary("reverse 16x64x256x256 axis 2", "reverse", {16, 64, 256, 256},
              {{"axis", Attr::ints({2})}}, "np.flip(x, 2).copy()", "np.copyto(out, np.flip(x, 2))",
              [](const EigenKernels& k, const Arrays& a) {
                  return k.reverse(a.at("x"), {false, false, true, false});
              }),
        unary("transpose 8192x8192", "transpose", {8192, 8192}, {{"perm", Attr::ints({1, 0})}},
              "np.ascontiguousarray(x.T)", "np.copyto(out, x.T)",
              [](const EigenKernels& k, const Arrays& a) {
                  return k.transpose(a.at("x"), {1, 0});
              }),
        narrowTranspose(DType::Int8),
        narrowTranspose(DType::Bool),
        narrowTranspose(DType::Int16),
        narrowReverse(DType::Int8),
        narrowReverse(DType::Int16),
        unary("transpose 16x64x256x256 (0,2,3,1)", "transpose", {16, 64, 256, 256},
              {{"perm", Attr::ints({0, 2, 3, 1})}}, "np.ascontiguousarray(x.transpose(0, 2, 3, 1))",
              "np.copyto(out, x.transpose(0, 2, 3, 1))",
              [](const EigenKernels& k, const Arrays& a) {
                  return k.transpose(a.at("x"), {0, 2, 3, 1});
              }),
        unary("pad REFLECT 8064x8064 by 64", "pad", {8064, 8064},
              {{"paddings", pairs({{64, 64}, {64, 64}})}, {"mode", Attr("REFLECT")}},
              "np.pad(x, ((64, 64), (64, 64)), mode='reflect')", "",
              [](const EigenKernels& k, const Arrays& a) {
                  return k.pad(a.at("x"), {{64, 64}, {64, 64}}, EigenKernels::PadMode::Reflect);
              }),
        unary("pad CONSTANT 8064x8064 by 64", "pad", {8064, 8064},
              {{"paddings", pairs({{64, 64}, {64, 64}})}}, "np.pad(x, ((64, 64), (64, 64)))", "",
              [](const EigenKernels& k, const Arrays& a) {
                  return k.pad(a.at("x"), {{64, 64}, {64, 64}}, EigenKernels::PadMode::Constant);
              }),
        unary("tile 4096x4096 by (2,2)", "tile", {4096, 4096}, {{"multiples", Attr::ints({2, 2})}},
              "np.tile(x, (2, 2))", "np.copyto(out.reshape(2, 4096, 2, 4096), x[None, :, None, :])",
              [](const EigenKernels& k, const Arrays& a) {
                  return k.tile(a.at("x"), {2, 2});
              }),
        {"concat 2x 8192x4096 on axis 1",
         "concat",
         {{"x", {8192, 4096}}, {"y", {8192, 4096}}},
         {},
         {{"x", "y"}},
         {{"axis", Attr(1)}},
         "np.concatenate([x, y], axis=1)",
         "np.concatenate([x, y], axis=1, out=out)",
         [](const EigenKernels& k, const Arrays& a) {
             return k.concat({a.at("x"), a.at("y")}, 1);
         }},
        {"gather 32768 of 65536x1024 rows",
         "gather",
         {{"x", {65536, 1024}}},
         {{"idx", 32768, 65536}},
         {{"x"}, {"idx"}},
         {{"axis", Attr(0)}},
         "np.take(x, idx, axis=0)",
         "np.take(x, idx, axis=0, out=out)",
         nullptr},
        unary("space_to_batch_nd 16x512x512x16 by 2x2", "space_to_batch_nd", {16, 512, 512, 16},
              {{"block_shape", Attr::ints({2, 2})}, {"paddings", pairs({{0, 0}, {0, 0}})}},
              "np.ascontiguousarray(x.reshape(16, 256, 2, 256, 2, 16)"
              ".transpose(2, 4, 0, 1, 3, 5)).reshape(64, 256, 256, 16)",
              "np.copyto(out.reshape(2, 2, 16, 256, 256, 16), x.reshape(16, 256, 2, 256, 2, 16)"
              ".transpose(2, 4, 0, 1, 3, 5))"),
        unary("depth_to_space 16x256x256x64 by 2", "depth_to_space", {16, 256, 256, 64},
              {{"block_size", Attr(2)}},
              "np.ascontiguousarray(x.reshape(16, 256, 256, 2, 2, 16)"
              ".transpose(0, 1, 3, 2, 4, 5)).reshape(16, 512, 512, 16)",
              "np.copyto(out.reshape(16, 256, 2, 256, 2, 16), x.reshape(16, 256, 256, 2, 2, 16)"
              ".transpose(0, 1, 3, 2, 4, 5))"),
        unary("space_to_depth 16x512x512x16 by 2", "space_to_depth", {16, 512, 512, 16},
              {{"block_size", Attr(2)}},
              "np.ascontiguousarray(x.reshape(16, 256, 2, 256, 2, 16)"
              ".transpose(0, 1, 3, 2, 4, 5)).reshape(16, 256, 256, 64)",
              "np.copyto(out.reshape(16, 256, 256, 2, 2, 16), x.reshape(16, 256, 2, 256, 2, 16)"
              ".transpose(0, 1, 3, 2, 4, 5))",
              [](const EigenKernels& k, const Arrays& a) { return k.spaceToDepth(a.at("x"), 2); }),
        unary("extract_image_patches 8x256x256x8 3x3", "extract_image_patches", {8, 256, 256, 8},
              {{"ksizes", Attr::ints({1, 3, 3, 1})},
               {"strides", Attr::ints({1, 1, 1, 1})},
               {"rates", Attr::ints({1, 1, 1, 1})},
               {"padding", Attr("VALID")}},
              "np.ascontiguousarray(np.lib.stride_tricks.sliding_window_view(x, (3, 3), "
              "axis=(1, 2)).transpose(0, 1, 2, 4, 5, 3)).reshape(8, 254, 254, 72)",
              "np.copyto(out.reshape(8, 254, 254, 3, 3, 8), np.lib.stride_tricks."
              "sliding_window_view(x, (3, 3), axis=(1, 2)).transpose(0, 1, 2, 4, 5, 3))",
              [](const EigenKernels& k, const Arrays& a) {
                  return k.extractImagePatches(a.at("x"), 3, 3, 1, 1, 1, 1, false);
              }),
    };
}

// The same arrays numpy_bench.py makes: distinct bit patterns, so a checksum catches any element
// taken from the wrong place. Elements of 1 and 2 bytes cannot all differ; they get i + (i >> 8)
// + (i >> 16) cut to their width (bool: its lowest bit), which changes along every axis of the
// workloads' shapes.
template <class Bits> void fillBits(Tensor& t, int k, bool isBool)
{
    auto* bits = t.data<Bits>();
    const std::uint32_t base = std::uint32_t(k) << 28;
    for (std::int64_t i = 0; i < t.size(); ++i) {
        const auto u = std::uint32_t(i);
        const std::uint32_t v = sizeof(Bits) == 4 ? base + u : base + u + (u >> 8) + (u >> 16);
        bits[i] = Bits(isBool ? v & 1 : v);
    }
}

Tensor dataArray(DType dtype, const Shape& shape, int k)
{
    Tensor t = Tensor::empty(dtype, shape);
    switch (dtypeSize(dtype)) {
    case 1: fillBits<std::uint8_t>(t, k, dtype == DType::Bool); break;
    case 2: fillBits<std::uint16_t>(t, k, false); break;
    case 4: fillBits<std::uint32_t>(t, k, false); break;
    default: throw std::invalid_argument("bench_slicing has no workloads of 8-byte elements");
    }
    return t;
}

Tensor indexArray(const IndexArray& a)
{
    Tensor t = Tensor::empty(DType::Int32, {a.count});
    for (std::int64_t i = 0; i < a.count; ++i)
        t.data<std::int32_t>()[i] = std::int32_t(i * 7919 % a.rows);
    return t;
}

struct EngineResult
{
    double ms = 0;     // median wall time
    double spread = 0; // (slowest - fastest run) / median
    double cpu = 0;    // median CPU time, all threads
    Shape shape;
    std::uint64_t checksum = 0;
    double bytesToMove = 0; // 64 x input lines holding a selected element + output bytes
};

Arrays makeArrays(const Workload& w)
{
    Arrays arrays;
    for (std::size_t k = 0; k < w.arrays.size(); ++k)
        arrays[w.arrays[k].first] = dataArray(w.dtype, w.arrays[k].second, int(k));
    for (const IndexArray& a : w.indices)
        arrays[a.name] = indexArray(a);
    return arrays;
}

struct EigenResult
{
    double ms = 0; // median wall time, output allocation included
    Shape shape;
    std::uint64_t checksum = 0;
};

// TensorFlow's expression, timed like the engine: an untimed warm-up, then the median.
EigenResult runEigen(const Workload& w, const EigenKernels& kernels, int runs)
{
    const Arrays arrays = makeArrays(w);
    EigenResult result;
    std::vector<double> times;
    Tensor output;
    for (int r = -1; r < runs; ++r) {
        output = Tensor();
        const auto start = Clock::now();
        output = w.eigen(kernels, arrays);
        if (r >= 0) times.push_back(msSince(start));
    }
    result.ms = median(times);
    result.shape = output.shape();
    result.checksum = checksum(output);
    return result;
}

EngineResult runEngine(const OpDef& def, const Workload& w, Executor& executor, int runs)
{
    const Arrays arrays = makeArrays(w);
    std::vector<std::vector<Tensor>> inputs;
    for (const auto& names : w.inputs) {
        inputs.emplace_back();
        for (const auto& n : names)
            inputs.back().push_back(arrays.at(n));
    }
    const Limits limits = Limits::machineDefault();

    EngineResult result;
    std::vector<double> times, cpus;
    std::vector<Tensor> outputs;
    // The first run (r = -1) is an untimed warm-up (see warmUpMemory).
    for (int r = -1; r < runs; ++r) {
        outputs.clear(); // the previous output is freed outside the timed region
        const double cpu0 = cpuMs();
        const auto start = Clock::now();
        OpCall call(def, inputs, w.attrs, limits);
        call.setExecutor(&executor); // as a request plans
        const OpPlan plan = def.plan(call);
        outputs = executePlan(plan, call.allInputs(), executor);
        if (r >= 0) {
            times.push_back(msSince(start));
            cpus.push_back(cpuMs() - cpu0);
        }
    }
    result.cpu = median(cpus);
    result.ms = median(times);
    result.spread = (*std::max_element(times.begin(), times.end()) -
                     *std::min_element(times.begin(), times.end())) /
                    result.ms;
    result.shape = outputs.at(0).shape();
    result.checksum = checksum(outputs[0]);
    outputs.clear();

    // The bytes that must move: each 64-byte input line holding a source element, read once,
    // and the output, written once.
    const OpCall call(def, inputs, w.attrs, limits);
    const OpPlan plan = def.plan(call);
    result.bytesToMove = sourceLineBytes(plan, 0, call.allInputs(), executor) +
                         double(numElements(result.shape)) * double(dtypeSize(w.dtype));
    return result;
}

std::string numpyLine(const Workload& w, int runs)
{
    std::string inputs;
    for (const auto& [name, shape] : w.arrays)
        inputs += (inputs.empty() ? "" : ", ") + jsonString(name) + ": [" + shapeText(shape) + "]";
    std::string indices;
    for (const IndexArray& a : w.indices)
        indices += (indices.empty() ? "" : ", ") + jsonString(a.name) + ": [" +
                   std::to_string(a.count) + "," + std::to_string(a.rows) + "]";
    return "{\"name\": " + jsonString(w.name) + ", \"inputs\": {" + inputs +
           "}, \"dtype\": " + jsonString(std::string(dtypeName(w.dtype))) + ", \"indices\": {" +
           indices + "}, \"expr\": " + jsonString(w.numpy) +
           ", \"out_expr\": " + jsonString(w.numpyOut) + ", \"runs\": " + std::to_string(runs) +
           "}";
}

std::map<std::string, NumpyResult> runNumpy(const std::vector<const Workload*>& list, int runs)
{
    std::vector<std::string> lines;
    for (const Workload* w : list)
        lines.push_back(numpyLine(*w, runs));
    return ss::bench::runNumpy(SLICESCOPE_BENCH_DIR, lines);
}

// The CLI path (--cli): each workload's arrays written to .npy files and answered by a fresh
// slicescope-cli process, against NumPy loading the same files. The bound is the op's, from its
// plan run here once.
bool runCliMode(const std::vector<const Workload*>& list, Executor& executor, double rate,
                const std::string& cli, int requests, int runs)
{
    const ScratchDir dir;
    std::vector<CliCase> cases;
    const Limits limits = Limits::machineDefault();
    for (std::size_t k = 0; k < list.size(); ++k) {
        const Workload& w = *list[k];
        const OpDef& def = *findOp(w.op);
        double bytes = 0;
        std::map<std::string, std::string> files;
        {
            const Arrays arrays = makeArrays(w);
            files = writeNpyInputs(dir.path(), "w" + std::to_string(k) + "_", arrays);
            std::vector<std::vector<Tensor>> inputs;
            for (const auto& names : w.inputs) {
                inputs.emplace_back();
                for (const auto& n : names)
                    inputs.back().push_back(arrays.at(n));
            }
            const OpCall call(def, inputs, w.attrs, limits);
            const OpPlan plan = def.plan(call);
            const std::vector<Tensor> outputs = executePlan(plan, call.allInputs(), executor);
            bytes = sourceLineBytes(plan, 0, call.allInputs(), executor) +
                    double(outputs.at(0).size()) * double(dtypeSize(w.dtype));
        }
        cases.push_back({w.name, cliRequest(def, inputFiles(w.inputs, files), w.attrs),
                         withNpyFiles(numpyLine(w, runs), files), bytes / rate});
    }
    releasePooledBuffers();
    return runCliTable(SLICESCOPE_BENCH_DIR, cli, cases, requests);
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 7;
    std::vector<std::string> only;
    bool withNumpy = true;
    bool cliMode = false;
    std::string cli = defaultCliPath();
    int requests = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--cli") {
            cliMode = true;
        } else if (arg == "--cli-path" && i + 1 < argc) {
            cliMode = true;
            cli = argv[++i];
        } else if (arg == "--requests" && i + 1 < argc) {
            requests = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--only" && i + 1 < argc) {
            only.push_back(argv[++i]);
        } else if (arg == "--no-numpy") {
            withNumpy = false;
        } else {
            std::printf(
                "usage: bench_slicing [--runs N] [--only TEXT] [--no-numpy] [--cli] [--cli-path P] "
                "[--requests N]\n"
                "  --runs N     timed runs per workload (median reported; default 7)\n"
                "  --only TEXT  only workloads whose name contains TEXT (repeat it for several)\n"
                "  --no-numpy   no NumPy: the engine's CPU time instead (for work on the "
                "copy engine)\n"
                "  --cli        the CLI path instead: inputs from .npy files, one fresh\n"
                "               slicescope-cli process per workload (see README.md)\n"
                "  --cli-path P the slicescope-cli to run (default: the one built here)\n"
                "  --requests N requests per process in --cli mode (default 5)\n");
            return arg == "--help" ? 0 : 2;
        }
    }

    Executor executor(2);
    warmUpMemory();
    const std::size_t copyBytes = std::size_t(256) << 20;
    const double rate1 = memcpyRate(copyBytes, 1, 7);
    const double rate2 = memcpyRate(copyBytes, 2, 7);
    const double rate = std::max(rate1, rate2);
    const double faultRate = freshPageRate(copyBytes, 7);
    std::printf(
        "bench_slicing: float32 unless named, engine with %d worker threads, median of %d runs\n",
        executor.threadCount(), runs);
    std::printf("memcpy of 256 MiB (faulted-in buffers, median of 7), bytes read + written: "
                "1 thread %.1f GB/s, 2 threads %.1f GB/s\n",
                rate1 / 1e6, rate2 / 1e6);
    std::printf("streaming bound = (64 B x input cache lines holding a selected element + output "
                "bytes) / %.1f GB/s\n",
                rate / 1e6);
    std::printf("fresh pages (2 threads) are zeroed at %.1f GB/s: NumPy's materialised results "
                "pay that,\nthe engine's outputs reuse the buffers the previous run freed, as "
                "out= does\n\n",
                faultRate / 1e6);

    std::vector<const Workload*> measured;
    std::map<std::string, EngineResult> engine;
    const std::vector<Workload> all = workloads();
    for (const Workload& w : all) {
        if (!picked(only, w.name)) continue;
        const OpDef* def = findOp(w.op);
        if (!def) {
            std::printf("%-40s  (op '%s' not available)\n", w.name.c_str(), w.op.c_str());
            continue;
        }
        if (!cliMode) engine[w.name] = runEngine(*def, w, executor, runs);
        measured.push_back(&w);
    }
    if (cliMode) return runCliMode(measured, executor, rate, cli, requests, runs) ? 0 : 1;
    // TensorFlow's expressions, on as many threads as the engine has.
    std::map<std::string, EigenResult> eigen;
    {
        const EigenKernels kernels(executor.threadCount());
        for (const Workload* w : measured)
            if (w->eigen) eigen[w->name] = runEigen(*w, kernels, runs);
    }
    // NumPy runs after the engine is done, so the two never share the cores.
    const std::map<std::string, NumpyResult> numpy =
        withNumpy ? runNumpy(measured, runs) : std::map<std::string, NumpyResult>{};

    std::printf("%-40s %9s %7s %9s %8s %9s %9s %8s %8s %8s\n", "workload", "engine ms", "spread",
                "Eigen ms", "vs Eigen", withNumpy ? "NumPy ms" : "cpu ms",
                withNumpy ? "out= ms" : "", withNumpy ? "vs NumPy" : "", "bound ms", "vs bound");
    bool allAgree = true;
    for (const Workload* w : measured) {
        const EngineResult& e = engine.at(w->name);
        const double bound = e.bytesToMove / rate;
        std::string notes;
        char eigenColumns[64] = "        -        -";
        if (const auto it = eigen.find(w->name); it != eigen.end()) {
            std::snprintf(eigenColumns, sizeof eigenColumns, "%9.2f %7.2fx", it->second.ms,
                          e.ms / it->second.ms);
            if (it->second.shape != e.shape || it->second.checksum != e.checksum) {
                notes += "  EIGEN DIFFERS (shape " + shapeText(it->second.shape) + ")";
                allAgree = false;
            }
        }
        std::string numpyColumns = "        -         -        -";
        if (!withNumpy) {
            char text[64];
            std::snprintf(text, sizeof text, "%9.2f %9s %8s", e.cpu, "", "");
            numpyColumns = text;
        } else if (const auto it = numpy.find(w->name); it == numpy.end()) {
            notes += "  NumPy failed";
            allAgree = false;
        } else {
            const NumpyResult& n = it->second;
            char out[16] = "        -";
            if (n.outMs == n.outMs) std::snprintf(out, sizeof out, "%9.2f", n.outMs);
            char text[64];
            std::snprintf(text, sizeof text, "%9.2f %s %7.2fx", n.ms, out, e.ms / n.ms);
            numpyColumns = text;
            if (n.shape != shapeText(e.shape) || n.checksum != e.checksum) {
                notes += "  RESULTS DIFFER (shape " + shapeText(e.shape) + " vs " + n.shape + ")";
                allAgree = false;
            }
            if (e.ms / n.ms > 0.7) notes += "  misses 0.7x NumPy";
        }
        if (e.ms / bound > w->boundTarget) {
            char text[64];
            std::snprintf(text, sizeof text, "  misses %.1fx bound", w->boundTarget);
            notes += text;
        }
        std::printf("%-40s %9.2f %6.0f%% %s %s %8.2f %7.2fx%s\n", w->name.c_str(), e.ms,
                    e.spread * 100, eigenColumns, numpyColumns.c_str(), bound, e.ms / bound,
                    notes.c_str());
    }
    if (withNumpy)
        std::printf(
            "\ntargets: engine <= 0.7x NumPy and <= 1.5x the streaming bound (4x for the 1- and "
            "2-byte transposes). Results %s.\n",
            allAgree ? "agree with Eigen and NumPy (shape and checksum)"
                     : "DO NOT all agree with Eigen and NumPy");
    return allAgree ? 0 : 1;
}
