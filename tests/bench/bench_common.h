// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the engine benchmarks that compare with NumPy share: timing, the memory warm-up, the
// machine's memcpy and fresh-page rates, the streaming bound's input lines, and the NumPy driver
// (numpy_bench.py beside this file, started as Debian's /usr/bin/python3).

#include "core/executor.h"
#include "core/op.h"
#include "core/plan.h"
#include "core/tensor.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
        if (std::sscanf(line, "%1023[^\t]\t%lf\t%255[^\t]\t%llu\t%lf", name, &r.ms, shape, &sum,
                        &r.outMs) == 5) {
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

} // namespace ss::bench
