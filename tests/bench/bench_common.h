// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the engine benchmarks that compare with NumPy share: timing, the memory warm-up, the
// machine's memcpy and fresh-page rates, the streaming bound's input lines, and the NumPy driver
// (numpy_bench.py beside this file, started as Debian's /usr/bin/python3).

#include "core/executor.h"
#include "core/op.h"
#include "core/plan.h"
#include "core/tensor.h"
#include "protocol/json.h"
#include "protocol/npy.h"
#include "protocol/request.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ss::bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// User and system time of every thread of this process, in ms.
struct CpuTimes
{
    double user = 0;
    double system = 0;
    long minorFaults = 0;
};

inline CpuTimes cpuTimes()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return {(double(u.ru_utime.tv_sec) * 1e6 + double(u.ru_utime.tv_usec)) / 1e3,
            (double(u.ru_stime.tv_sec) * 1e6 + double(u.ru_stime.tv_usec)) / 1e3, u.ru_minflt};
}

inline double cpuMs()
{
    const CpuTimes t = cpuTimes();
    return t.user + t.system;
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// A virtual machine may back guest memory lazily and take back what the guest frees (virtio
// free page reporting): the first writes to memory not used for a few seconds then cost several
// times a page fault (here 150-300 ms instead of 34 ms for 256 MiB). Touching more memory than any
// workload needs, once, and an untimed first run of every workload (here and in numpy_bench.py)
// keep that out of the figures.
inline void warmUpMemory()
{
    const std::size_t bytes = std::size_t(2) << 30;
    auto* p = static_cast<char*>(std::aligned_alloc(4096, bytes));
    if (!p) return;
    madvise(p, bytes, MADV_HUGEPAGE);
    for (int pass = 0; pass < 2; ++pass) {
        std::thread helper([&] { std::memset(p + bytes / 2, pass, bytes / 2); });
        std::memset(p, pass, bytes / 2);
        helper.join();
    }
    std::free(p);
}

/// memcpy throughput in bytes moved (read + written) per millisecond, buffers already faulted in.
inline double memcpyRate(std::size_t bytes, int threads, int runs)
{
    auto* src = static_cast<char*>(std::aligned_alloc(64, bytes));
    auto* dst = static_cast<char*>(std::aligned_alloc(64, bytes));
    std::memset(src, 1, bytes);
    std::memset(dst, 0, bytes);
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        const auto start = Clock::now();
        if (threads == 1) {
            std::memcpy(dst, src, bytes);
        } else {
            const std::size_t half = bytes / 2 / 64 * 64;
            std::thread helper([&] { std::memcpy(dst + half, src + half, bytes - half); });
            std::memcpy(dst, src, half);
            helper.join();
        }
        times.push_back(msSince(start));
    }
    std::free(src);
    std::free(dst);
    return 2.0 * double(bytes) / median(times);
}

/// How fast the kernel hands out fresh memory, in bytes per millisecond: faulting in 256 MiB of
/// new 2 MiB pages (which the kernel zeroes) with two threads, as every output of a run must be.
inline double freshPageRate(std::size_t bytes, int runs)
{
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        auto* p = static_cast<char*>(std::aligned_alloc(4096, bytes));
        madvise(p, bytes, MADV_HUGEPAGE);
        const auto start = Clock::now();
        auto touch = [&](std::size_t from, std::size_t to) {
            for (std::size_t k = from; k < to; k += 4096)
                p[k] = 1;
        };
        std::thread helper([&] { touch(bytes / 2, bytes); });
        touch(0, bytes / 2);
        helper.join();
        times.push_back(msSince(start));
        std::free(p);
    }
    return double(bytes) / median(times);
}

/// The input bytes output `output` of a plan must read: each 64-byte input line holding at least
/// one source element, once (buffers are 64-byte aligned).
inline double sourceLineBytes(const OpPlan& plan, int output, const std::vector<Tensor>& inputs,
                              Executor& executor)
{
    std::vector<std::vector<std::uint64_t>> lineBits(inputs.size());
    for (std::size_t s = 0; s < inputs.size(); ++s)
        lineBits[s].assign(
            std::size_t((inputs[s].size() * dtypeSize(inputs[s].dtype()) + 63) / 64 / 64 + 1), 0);
    for (std::int64_t src : planSources(plan, output, executor)) {
        if (src < 0) continue;
        const std::size_t slot = std::size_t(sourceSlot(src));
        const std::int64_t line = sourceIndex(src) * dtypeSize(inputs[slot].dtype()) / 64;
        lineBits[slot][std::size_t(line / 64)] |= std::uint64_t(1) << (line % 64);
    }
    std::int64_t lines = 0;
    for (const auto& bits : lineBits)
        for (std::uint64_t word : bits)
            lines += std::popcount(word);
    return double(lines) * 64;
}

inline std::string jsonString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

/// What numpy_bench.py reports for one workload.
struct NumpyResult
{
    double ms = 0;
    double outMs = 0; // into a preallocated output; NaN where there is no such form
    std::string shape;
    std::uint64_t checksum = 0;
    double loadMs = 0; // np.load of every input file, then the expression; NaN without files
};

/// Runs numpy_bench.py (in `benchDir`) over workloads given as its JSON lines (see the script),
/// after the engine is done, so that the two never share the cores. Results by workload name.
inline std::map<std::string, NumpyResult> runNumpy(const std::string& benchDir,
                                                   const std::vector<std::string>& jsonLines)
{
    char path[] = "/tmp/slicescope_bench_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file");
    std::string text;
    for (const std::string& line : jsonLines)
        text += line + "\n";
    const bool written = write(fd, text.data(), text.size()) == ssize_t(text.size());
    close(fd);
    if (!written) throw std::runtime_error("cannot write the workload file");
    const std::string command = "/usr/bin/python3 " + benchDir + "/numpy_bench.py " + path;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot start " + command);
    std::map<std::string, NumpyResult> results;
    char line[4096];
    while (std::fgets(line, sizeof line, pipe)) {
        char name[1024];
        char shape[256];
        NumpyResult r;
        unsigned long long sum = 0;
        r.loadMs = std::numeric_limits<double>::quiet_NaN();
        if (std::sscanf(line, "%1023[^\t]\t%lf\t%255[^\t]\t%llu\t%lf\t%lf", name, &r.ms, shape,
                        &sum, &r.outMs, &r.loadMs) >= 5) {
            r.shape = shape;
            r.checksum = sum;
            results[name] = r;
        }
    }
    const int status = pclose(pipe);
    unlink(path);
    if (status != 0)
        throw std::runtime_error("the NumPy driver failed (is python3-numpy installed?)");
    return results;
}

// The protocol's checksum: sum of bits(y_i) * (2i + 1) modulo 2^64, over the element's 1, 2
// or 4 bytes.
template <class Bits> inline std::uint64_t checksumOf(const Tensor& t)
{
    const auto* bits = t.data<Bits>();
    std::uint64_t sum = 0;
    for (std::int64_t i = 0; i < t.size(); ++i)
        sum += std::uint64_t(bits[i]) * (2 * std::uint64_t(i) + 1);
    return sum;
}

inline std::uint64_t checksum(const Tensor& t)
{
    switch (dtypeSize(t.dtype())) {
    case 1: return checksumOf<std::uint8_t>(t);
    case 2: return checksumOf<std::uint16_t>(t);
    default: return checksumOf<std::uint32_t>(t);
    }
}

inline std::string shapeText(const Shape& s)
{
    std::string text;
    for (std::int64_t d : s)
        text += (text.empty() ? "" : ",") + std::to_string(d);
    return text;
}

// ---- The CLI path: a workload run as a user runs it. Its inputs are written to .npy files, and
// one fresh `slicescope-cli run` process answers the same request (inputs {"npy": path},
// `emit: summary`, `timing: true`) several times in a row; NumPy loads the same files.

/// What one fresh slicescope-cli process reported for a workload's requests.
struct CliResult
{
    bool ok = false;
    std::string error;    // the first failure, if any
    double firstOpMs = 0; // the first request: a fresh process, every buffer new
    double firstTotalMs = 0;
    std::vector<double> opMs;    // every request's timing.op_ms (decode, plan and execution)
    std::vector<double> totalMs; // every request's timing.total_ms (reading its files included)
    double processMs = 0;        // from starting the process until it exited
    std::string shape;           // output 0, as "2,3"
    std::uint64_t checksum = 0;  // output 0's protocol checksum
};

/// Whether the workload `name` is one the `--only TEXT` arguments ask for (a name holding any of
/// the texts; no text: every workload).
inline bool picked(const std::vector<std::string>& only, const std::string& name)
{
    return only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string& text) {
               return name.find(text) != std::string::npos;
           });
}

/// The slicescope-cli the benchmarks run: --cli PATH, else the one built beside them.
inline std::string defaultCliPath()
{
#ifdef SLICESCOPE_CLI_PATH
    return SLICESCOPE_CLI_PATH;
#else
    return "slicescope-cli";
#endif
}

/// A directory for a run's .npy files, removed by its destructor.
class ScratchDir
{
public:
    ScratchDir()
    {
        char path[] = "/tmp/slicescope_cli_bench_XXXXXX";
        if (!mkdtemp(path)) throw std::runtime_error("cannot create a temporary directory");
        m_path = path;
    }
    ~ScratchDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

/// The request line (without its id) for `op` with each input read from the .npy files given
/// (one file per tensor; list inputs take several), the attributes, emit summary and timing.
inline std::string cliRequest(const OpDef& def, const std::vector<std::vector<std::string>>& files,
                              const Attrs& attrs)
{
    std::string text;
    JsonWriter w(text);
    w.beginObject();
    w.key("op");
    w.value(def.name);
    w.key("inputs");
    w.beginObject();
    for (std::size_t k = 0; k < def.inputs.size() && k < files.size(); ++k) {
        w.key(def.inputs[k].name);
        if (def.inputs[k].isList) w.beginArray();
        for (const std::string& file : files[k]) {
            w.beginObject();
            w.key("npy");
            w.value(file);
            w.endObject();
        }
        if (def.inputs[k].isList) w.endArray();
    }
    w.endObject();
    w.key("attrs");
    w.beginObject();
    for (const auto& [name, value] : attrs) {
        w.key(name);
        writeAttr(w, value);
    }
    w.endObject();
    w.key("emit");
    w.value("summary");
    w.key("timing");
    w.value(true);
    w.endObject();
    return text;
}

namespace detail {
// The number after "key": in a response line (NaN if absent).
inline double jsonNumber(const std::string& line, const std::string& key)
{
    const std::size_t at = line.find("\"" + key + "\":");
    if (at == std::string::npos) return std::numeric_limits<double>::quiet_NaN();
    return std::strtod(line.c_str() + at + key.size() + 3, nullptr);
}
} // namespace detail

/// Runs `request` (cliRequest's line) `count` times in one fresh `cli run` process.
inline CliResult runCli(const std::string& cli, const std::string& request, int count)
{
    CliResult result;
    char path[] = "/tmp/slicescope_cli_requests_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file");
    std::string text;
    for (int k = 0; k < count; ++k)
        text += "{\"id\": " + std::to_string(k) + ", " + request.substr(1) + "\n";
    const bool written = write(fd, text.data(), text.size()) == ssize_t(text.size());
    close(fd);
    if (!written) throw std::runtime_error("cannot write the request file");
    const auto start = Clock::now();
    FILE* pipe = popen((cli + " run " + path + " 2>&1").c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot start " + cli);
    std::string line;
    std::vector<std::string> lines;
    char buffer[65536];
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        line += buffer;
        if (!line.empty() && line.back() == '\n') {
            lines.push_back(line);
            line.clear();
        }
    }
    const int status = pclose(pipe);
    result.processMs = msSince(start);
    unlink(path);
    for (const std::string& l : lines) {
        if (l.find("\"ok\":true") == std::string::npos) {
            if (result.error.empty()) result.error = l.substr(0, 300);
            continue;
        }
        result.opMs.push_back(detail::jsonNumber(l, "op_ms"));
        result.totalMs.push_back(detail::jsonNumber(l, "total_ms"));
        const std::size_t shape = l.find("\"shape\":[");
        const std::size_t sum = l.find("\"checksum\":\"");
        if (shape != std::string::npos)
            result.shape = l.substr(shape + 9, l.find(']', shape) - shape - 9);
        if (sum != std::string::npos)
            result.checksum = std::strtoull(l.c_str() + sum + 12, nullptr, 16);
    }
    result.ok = status == 0 && result.error.empty() && int(result.opMs.size()) == count;
    if (!result.ok && result.error.empty())
        result.error = "slicescope-cli exited with status " + std::to_string(status);
    if (!result.opMs.empty()) {
        result.firstOpMs = result.opMs.front();
        result.firstTotalMs = result.totalMs.front();
    }
    return result;
}

/// "median (min-max)" of a list of times.
inline std::string medianSpread(const std::vector<double>& times)
{
    if (times.empty()) return "-";
    char text[64];
    std::snprintf(text, sizeof text, "%.2f (%.2f-%.2f)", median(times),
                  *std::min_element(times.begin(), times.end()),
                  *std::max_element(times.begin(), times.end()));
    return text;
}

/// One row of the CLI-path table (the header is cliTableHeader()).
inline std::string cliRow(const std::string& name, const CliResult& c, const NumpyResult* n,
                          double boundMs, bool& agree)
{
    char text[1024];
    if (!c.ok) {
        agree = false;
        std::snprintf(text, sizeof text, "%-40s CLI FAILED: %s", name.c_str(), c.error.c_str());
        return text;
    }
    const double op = median(c.opMs);
    const double total = median(c.totalMs);
    std::string notes;
    char numpy[96] = "        -         -        -        -";
    if (!n) {
        notes += "  NumPy failed";
        agree = false;
    } else {
        std::snprintf(numpy, sizeof numpy, "%9.2f %9.2f %7.2fx %7.2fx", n->ms, n->loadMs,
                      op / n->ms, total / n->loadMs);
        if (n->shape != c.shape || n->checksum != c.checksum) {
            notes += "  RESULTS DIFFER (shape " + c.shape + " vs " + n->shape + ")";
            agree = false;
        }
    }
    std::snprintf(text, sizeof text, "%-40s %8.2f %8.2f %24s %9.2f %8.1f %s %8.2f %7.2fx%s",
                  name.c_str(), c.firstOpMs, c.firstTotalMs, medianSpread(c.opMs).c_str(), total,
                  c.processMs, numpy, boundMs, op / boundMs, notes.c_str());
    return text;
}

inline std::string cliTableHeader()
{
    char text[512];
    std::snprintf(text, sizeof text, "%-40s %8s %8s %24s %9s %8s %9s %9s %8s %8s %8s %8s",
                  "workload (CLI path)", "1st op", "1st tot", "op ms med (min-max)", "total ms",
                  "proc ms", "NumPy ms", "load+op", "op/NumPy", "tot/l+op", "bound ms", "op/bound");
    return text;
}

inline const char* cliTableLegend()
{
    return "CLI path: one fresh slicescope-cli process answers the request N times in a row, its\n"
           "inputs read from .npy files (emit: summary, timing: true). 1st op / 1st tot: the\n"
           "first request's timing.op_ms and total_ms; op ms: median (min-max) of every request's\n"
           "op_ms; total ms: median total_ms (reading the .npy files, the op, the summary);\n"
           "proc ms: the process from start to exit. NumPy ms: the expression on arrays np.load\n"
           "read from the same files; load+op: np.load of every input, then the expression.\n"
           "op/NumPy: op ms / NumPy ms (target 0.7, gather 1.0); tot/l+op: total ms / load+op.\n"
           "bound ms: the streaming bound of the op (memcpy rate, input lines + output).\n";
}

/// Writes each array to `dir`/`prefix`NAME.npy; returns the paths by array name.
inline std::map<std::string, std::string>
writeNpyInputs(const std::string& dir, const std::string& prefix,
               const std::map<std::string, Tensor>& arrays)
{
    std::map<std::string, std::string> files;
    for (const auto& [name, tensor] : arrays) {
        const std::string path = dir + "/" + prefix + name + ".npy";
        writeNpyFile(path, tensor);
        files[name] = path;
    }
    return files;
}

/// The files each op input reads (`inputs` names the arrays each takes).
inline std::vector<std::vector<std::string>>
inputFiles(const std::vector<std::vector<std::string>>& inputs,
           const std::map<std::string, std::string>& files)
{
    std::vector<std::vector<std::string>> out;
    for (const auto& names : inputs) {
        out.emplace_back();
        for (const std::string& n : names)
            out.back().push_back(files.at(n));
    }
    return out;
}

/// A numpy_bench.py line (a JSON object) with the arrays loaded from `files`.
inline std::string withNpyFiles(std::string numpyLine,
                                const std::map<std::string, std::string>& files)
{
    std::string npy;
    for (const auto& [name, path] : files)
        npy += (npy.empty() ? "" : ", ") + jsonString(name) + ": " + jsonString(path);
    numpyLine.pop_back(); // the closing brace
    return numpyLine + ", \"npy\": {" + npy + "}}";
}

/// One workload of the CLI-path table, its files already written.
struct CliCase
{
    std::string name;
    std::string request;   // cliRequest()
    std::string numpyLine; // withNpyFiles()
    double boundMs = 0;    // the op's streaming bound
};

/// Runs every case in its own fresh slicescope-cli process (`requests` requests each), then
/// NumPy on the same files, and prints the table. Returns whether every result agreed.
inline bool runCliTable(const std::string& benchDir, const std::string& cli,
                        const std::vector<CliCase>& cases, int requests)
{
    std::map<std::string, CliResult> results;
    for (const CliCase& c : cases)
        results[c.name] = runCli(cli, c.request, requests);
    std::vector<std::string> lines;
    for (const CliCase& c : cases)
        lines.push_back(c.numpyLine);
    const std::map<std::string, NumpyResult> numpy = runNumpy(benchDir, lines);
    std::printf("%s\n%s\n", cliTableLegend(), cliTableHeader().c_str());
    bool agree = true;
    for (const CliCase& c : cases) {
        const auto it = numpy.find(c.name);
        std::printf("%s\n", cliRow(c.name, results.at(c.name),
                                   it == numpy.end() ? nullptr : &it->second, c.boundMs, agree)
                                .c_str());
    }
    std::printf("\nResults %s.\n",
                agree ? "agree with NumPy (shape and checksum)" : "DO NOT all agree with NumPy");
    return agree;
}

} // namespace ss::bench
