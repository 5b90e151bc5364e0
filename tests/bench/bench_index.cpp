// SPDX-License-Identifier: GPL-3.0-or-later
// bench_index: the index-driven ops (gather, dynamic_stitch, unique_with_counts) at 10^6-10^7
// elements against NumPy doing the same work in the same run (materialised, and into a
// preallocated output where NumPy has that form) and against the streaming bound. See README.md.
#include "bench_common.h"
#include "core/executor.h"
#include "core/op.h"
#include "core/plan.h"
#include "core/tensor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace ss;
using namespace ss::bench;

namespace {

constexpr std::int64_t kN = 10'000'000;
constexpr std::int64_t kM = 1'000'000;

// One array both sides make alike: the C++ filler and the NumPy expression for it.
struct Array
{
    std::string name;
    DType dtype;
    std::int64_t size;
    std::function<void(Tensor&)> fill;
    std::string numpy; // a NumPy expression of `n` (the size) giving the same values
};

// float32 whose bits are 0, 1, 2, ...: numpy_bench.py's make_input for input 0.
Array floatBits(const std::string& name, std::int64_t n)
{
    return {name, DType::Float32, n,
            [](Tensor& t) {
                for (std::int64_t i = 0; i < t.size(); ++i)
                    t.data<std::uint32_t>()[i] = std::uint32_t(i);
            },
            "np.arange(n, dtype=np.uint32).view(np.float32)"};
}

// Spread over [0, bound): the top bits of (i + 1) * 2^64/phi, modulo bound.
std::int64_t scattered(std::int64_t i, std::int64_t bound)
{
    return std::int64_t(((std::uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull >> 33) %
                        std::uint64_t(bound));
}
const char* kScatteredNumpy = "((np.arange(n, dtype=np.uint64) + np.uint64(1)) * "
                              "np.uint64(0x9E3779B97F4A7C15) >> np.uint64(33)) % np.uint64({})";

std::string format(const char* pattern, std::int64_t value)
{
    std::string s = pattern;
    return s.replace(s.find("{}"), 2, std::to_string(value));
}

Array randomIndices(std::int64_t n, std::int64_t bound)
{
    return {"idx", DType::Int32, n,
            [bound](Tensor& t) {
                for (std::int64_t i = 0; i < t.size(); ++i)
                    t.data<std::int32_t>()[i] = std::int32_t(scattered(i, bound));
            },
            "(" + format(kScatteredNumpy, bound) + ").astype(np.int32)"};
}

Array sequentialIndices(std::int64_t n)
{
    return {"idx", DType::Int32, n,
            [](Tensor& t) {
                for (std::int64_t i = 0; i < t.size(); ++i)
                    t.data<std::int32_t>()[i] = std::int32_t(i);
            },
            "np.arange(n, dtype=np.int32)"};
}

// Each of [0, n / 2) twice, in order.
Array pairedIndices(std::int64_t n)
{
    return {"idx", DType::Int32, n,
            [](Tensor& t) {
                for (std::int64_t i = 0; i < t.size(); ++i)
                    t.data<std::int32_t>()[i] = std::int32_t(i / 2);
            },
            "np.arange(n, dtype=np.int32) // 2"};
}

// A permutation of [0, n): i * a + b modulo n, with a prime to n, so consecutive i land far apart.
Array permutation(const std::string& name, DType dtype, std::int64_t n, std::int64_t a)
{
    return {name, dtype, n,
            [n, a](Tensor& t) {
                for (std::int64_t i = 0; i < t.size(); ++i)
                    t.setFromInt(i, (i * a + 12345) % n);
            },
            "((np.arange(n, dtype=np.int64) * " + std::to_string(a) + " + 12345) % n).astype(np." +
                std::string(dtypeName(dtype)) + ")"};
}

Array fewValues(std::int64_t n, std::int64_t distinct)
{
    return {"x", DType::Float32, n,
            [distinct](Tensor& t) {
                for (std::int64_t i = 0; i < t.size(); ++i)
                    t.data<float>()[i] = float(scattered(i, distinct));
            },
            "(" + format(kScatteredNumpy, distinct) + ").astype(np.float32)"};
}

struct Workload
{
    std::string name;
    std::string op;
    std::vector<Array> arrays;
    std::vector<std::vector<std::string>> inputs; // the arrays each op input takes
    Attrs attrs;
    std::string numpy;
    std::string numpyOut;   // "" where NumPy has no preallocated form
    std::string numpySetup; // more Python, run once untimed (functions for statements)
    std::string numpyCheck; // turns NumPy's result `y` into the engine's output 0
    bool boundFromSources;  // bound: source lines of output 0; else every input byte
};

std::vector<Workload> workloads()
{
    const std::string scatter = "def scatter():\n    o = np.empty_like(x)\n    o[idx] = x\n"
                                "    return o\n"
                                "def scatter_out():\n    out[idx] = x\n    return out\n";
    // Rows named twice: the last writer wins (NumPy's too), rows named by none are zero.
    const std::string stitch = "def stitch():\n    o = np.zeros(idx.max() + 1, x.dtype)\n"
                               "    o[idx] = x\n    return o\n";
    const std::string tfOrder = "(lambda v, f: v[np.argsort(f)])(*np.unique(x, return_index=True))";
    return {
        {"gather 10^7 of 10^7, random",
         "gather",
         {floatBits("x", kN), randomIndices(kN, kN)},
         {{"x"}, {"idx"}},
         {},
         "np.take(x, idx)",
         "np.take(x, idx, out=out)",
         "",
         "",
         true},
        {"gather 10^7 of 10^7, sequential",
         "gather",
         {floatBits("x", kN), sequentialIndices(kN)},
         {{"x"}, {"idx"}},
         {},
         "np.take(x, idx)",
         "np.take(x, idx, out=out)",
         "",
         "",
         true},
        {"dynamic_stitch 10^7, a permutation",
         "dynamic_stitch",
         {floatBits("x", kN), permutation("idx", DType::Int32, kN, 6700417)},
         {{"idx"}, {"x"}},
         {},
         "scatter()",
         "scatter_out()",
         scatter,
         "",
         true},
        {"dynamic_stitch 10^7, random (repeats)",
         "dynamic_stitch",
         {floatBits("x", kN), randomIndices(kN, kN)},
         {{"idx"}, {"x"}},
         {},
         "stitch()",
         "",
         stitch,
         "",
         true},
        {"dynamic_stitch 10^7, each row twice",
         "dynamic_stitch",
         {floatBits("x", kN), pairedIndices(kN)},
         {{"idx"}, {"x"}},
         {},
         "stitch()",
         "",
         stitch,
         "",
         true},
        {"unique_with_counts 10^6, all distinct",
         "unique_with_counts",
         {permutation("x", DType::Float32, kM, 7919)},
         {{"x"}},
         {},
         "np.unique(x, return_inverse=True, return_counts=True)",
         "",
         "",
         tfOrder,
         false},
        {"unique_with_counts 10^6, 1000 distinct",
         "unique_with_counts",
         {fewValues(kM, 1000)},
         {{"x"}},
         {},
         "np.unique(x, return_inverse=True, return_counts=True)",
         "",
         "",
         tfOrder,
         false},
    };
}

std::map<std::string, Tensor> makeArrays(const Workload& w)
{
    std::map<std::string, Tensor> arrays;
    for (const Array& a : w.arrays) {
        Tensor t = Tensor::empty(a.dtype, {a.size});
        a.fill(t);
        arrays[a.name] = t;
    }
    return arrays;
}

struct EngineResult
{
    double ms = 0;     // median wall time
    double lo = 0;     // fastest run
    double hi = 0;     // slowest run
    double cpu = 0;    // median CPU time, all threads
    double system = 0; // median share of the CPU time spent in the kernel (page faults)
    double faults = 0; // median minor page faults per run
    Shape shape;
    std::uint64_t checksum = 0;
    double bytesToMove = 0;
};

EngineResult runEngine(const OpDef& def, const Workload& w, Executor& executor, int runs)
{
    const std::map<std::string, Tensor> arrays = makeArrays(w);
    std::vector<std::vector<Tensor>> inputs;
    for (const auto& names : w.inputs) {
        inputs.emplace_back();
        for (const auto& n : names)
            inputs.back().push_back(arrays.at(n));
    }
    const Limits limits = Limits::machineDefault();
    EngineResult result;
    std::vector<double> times, cpus, system, faults;
    std::vector<Tensor> outputs;
    for (int r = -1; r < runs; ++r) { // r = -1: an untimed warm-up
        outputs.clear();
        const CpuTimes cpu0 = cpuTimes();
        const auto start = Clock::now();
        OpCall call(def, inputs, w.attrs, limits);
        call.setExecutor(&executor); // as a request plans
        const OpPlan plan = def.plan(call);
        outputs = executePlan(plan, call.allInputs(), executor);
        if (r >= 0) {
            times.push_back(msSince(start));
            const CpuTimes cpu1 = cpuTimes();
            const double used = cpu1.user + cpu1.system - cpu0.user - cpu0.system;
            cpus.push_back(used);
            system.push_back(used > 0 ? (cpu1.system - cpu0.system) / used : 0);
            faults.push_back(double(cpu1.minorFaults - cpu0.minorFaults));
        }
    }
    result.ms = median(times);
    result.lo = *std::min_element(times.begin(), times.end());
    result.hi = *std::max_element(times.begin(), times.end());
    result.cpu = median(cpus);
    result.system = median(system);
    result.faults = median(faults);
    result.shape = outputs.at(0).shape();
    result.checksum = checksum(outputs[0]);

    // The bytes that must move: the index arrays and the 64-byte lines of the sources read (or
    // every input byte), and every output written once.
    OpCall call(def, inputs, w.attrs, limits);
    const OpPlan plan = def.plan(call);
    double bytes = 0;
    for (const Array& a : w.arrays)
        if (!w.boundFromSources || a.dtype != DType::Float32)
            bytes += double(a.size) * dtypeSize(a.dtype);
    if (w.boundFromSources) bytes += sourceLineBytes(plan, 0, call.allInputs(), executor);
    for (const Tensor& t : outputs)
        bytes += double(t.size()) * dtypeSize(t.dtype());
    result.bytesToMove = bytes;
    return result;
}

std::string numpyLine(const Workload& w, int runs)
{
    std::string setup = "n = " + std::to_string(w.arrays.front().size) + "\n";
    for (const Array& a : w.arrays)
        setup += "n = " + std::to_string(a.size) + "\n" + a.name + " = " + a.numpy + "\n";
    setup += w.numpySetup;
    return "{\"name\": " + jsonString(w.name) +
           ", \"inputs\": {}, \"setup\": " + jsonString(setup) +
           ", \"expr\": " + jsonString(w.numpy) + ", \"out_expr\": " + jsonString(w.numpyOut) +
           ", \"check\": " + jsonString(w.numpyCheck) + ", \"runs\": " + std::to_string(runs) + "}";
}

// The CLI path (--cli): see bench_slicing's. The bound is the one the table above uses.
bool runCliMode(const std::vector<const Workload*>& list, Executor& executor, double rate,
                const std::string& cli, int requests, int runs)
{
    const ScratchDir dir;
    std::vector<CliCase> cases;
    const Limits limits = Limits::machineDefault();
    for (std::size_t k = 0; k < list.size(); ++k) {
        const Workload& w = *list[k];
        const OpDef& def = *findOp(w.op);
        std::map<std::string, std::string> files;
        double bytes = 0;
        {
            const std::map<std::string, Tensor> arrays = makeArrays(w);
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
            for (const Array& a : w.arrays)
                if (!w.boundFromSources || a.dtype != DType::Float32)
                    bytes += double(a.size) * dtypeSize(a.dtype);
            if (w.boundFromSources) bytes += sourceLineBytes(plan, 0, call.allInputs(), executor);
            for (const Tensor& t : outputs)
                bytes += double(t.size()) * dtypeSize(t.dtype());
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
        } else {
            std::printf("usage: bench_index [--runs N] [--only TEXT] [--cli] [--cli-path P] "
                        "[--requests N]\n"
                        "  --runs N     timed runs per workload (median reported; default 7)\n"
                        "  --only TEXT  only workloads whose name contains TEXT (repeat it for "
                        "several)\n"
                        "  --cli        the CLI path: inputs from .npy files, one fresh\n"
                        "               slicescope-cli process per workload (see README.md)\n"
                        "  --cli-path P the slicescope-cli to run (default: the one built here)\n"
                        "  --requests N requests per process in --cli mode (default 5)\n");
            return arg == "--help" ? 0 : 2;
        }
    }

    Executor executor(2);
    warmUpMemory();
    const std::size_t copyBytes = std::size_t(256) << 20;
    const double rate = std::max(memcpyRate(copyBytes, 1, 7), memcpyRate(copyBytes, 2, 7));
    std::printf("bench_index: engine with %d worker threads, median of %d runs\n",
                executor.threadCount(), runs);
    std::printf("streaming bound = (index bytes + 64 B x input cache lines read + output bytes) / "
                "%.1f GB/s (memcpy, read + written)\n\n",
                rate / 1e6);

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
    std::vector<std::string> lines;
    for (const Workload* w : measured)
        lines.push_back(numpyLine(*w, runs));
    const std::map<std::string, NumpyResult> numpy = runNumpy(SLICESCOPE_BENCH_DIR, lines);

    std::printf("%-40s %9s %15s %8s %6s %8s %9s %9s %8s %8s %8s\n", "workload", "engine ms",
                "(min-max)", "cpu ms", "sys", "faults", "NumPy ms", "out= ms", "vs NumPy",
                "bound ms", "vs bound");
    bool allAgree = true;
    for (const Workload* w : measured) {
        const EngineResult& e = engine.at(w->name);
        const double bound = e.bytesToMove / rate;
        std::string notes;
        char numpyColumns[64] = "        -         -        -";
        if (const auto it = numpy.find(w->name); it == numpy.end()) {
            notes += "  NumPy failed";
            allAgree = false;
        } else {
            const NumpyResult& n = it->second;
            char out[16] = "        -";
            if (n.outMs == n.outMs) std::snprintf(out, sizeof out, "%9.1f", n.outMs);
            std::snprintf(numpyColumns, sizeof numpyColumns, "%9.1f %s %7.2fx", n.ms, out,
                          e.ms / n.ms);
            if (n.shape != shapeText(e.shape) || n.checksum != e.checksum) {
                notes += "  RESULTS DIFFER (shape " + shapeText(e.shape) + " vs " + n.shape + ")";
                allAgree = false;
            }
            if (e.ms > n.ms) notes += "  misses 1.0x NumPy";
        }
        char spread[32];
        std::snprintf(spread, sizeof spread, "(%.1f-%.1f)", e.lo, e.hi);
        std::printf("%-40s %9.1f %15s %8.1f %5.0f%% %8.0f %s %8.1f %7.2fx%s\n", w->name.c_str(),
                    e.ms, spread, e.cpu, e.system * 100, e.faults, numpyColumns, bound,
                    e.ms / bound, notes.c_str());
    }
    std::printf("\ntarget: engine <= 1.0x NumPy. Results %s.\n",
                allAgree ? "agree with NumPy (shape and checksum)" : "DO NOT all agree with NumPy");
    return allAgree ? 0 : 1;
}
