// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace ss {

struct Limits;

/// How much memory the process may use, and what that number is, for messages.
struct MemoryLimit
{
    std::int64_t bytes = 0;
    /// "the cgroup memory limit (/sys/fs/cgroup/…/memory.max)" or "the physical memory".
    std::string name;
};

/// The memory this process may use: the smallest limit of the memory cgroups it is in and their
/// ancestors (cgroup v2 `memory.max`, else v1 `memory.limit_in_bytes`), or physical memory when
/// that is smaller or no cgroup limits memory. A process killed by its cgroup cannot answer, so
/// the cgroup's number, not the machine's, is the one to respect. `root` is prefixed to every
/// path read (/proc/self/cgroup, /proc/self/mountinfo, the cgroup files), for tests.
MemoryLimit machineMemoryLimit(const std::string& root = "");

/// The memory that can be allocated now: MemAvailable from /proc/meminfo (what the kernel can
/// hand out without swapping), or what a memory cgroup's limit leaves (its limit minus its
/// usage, the usage without its inactive page cache), whichever is smallest, over the process's
/// cgroups and their ancestors. A desktop app shares the machine: physical memory is not what it
/// can take. `root` is prefixed to every path read, for tests; with none readable, 2^62 bytes.
MemoryLimit availableMemory(const std::string& root = "");

/// The root availableMemory() reads under when Limits::forRequest() sizes a request: "" (the
/// real /proc and /sys), but in tests, which give a directory holding a fake /proc/meminfo.
/// Process-wide.
void setAvailableMemoryRoot(const std::string& root);
std::string availableMemoryRoot();

/// `limits` with a byte limit of `bytes` for each request alone ("the --max-bytes limit"), if
/// that is lower than limits.maxBytes: the command-line override of slicescope and
/// slicescope-cli. The memory available no longer counts: the user chose the number.
Limits withMaxBytes(const Limits& limits, std::int64_t bytes);

/// A byte count for people: "12 bytes", "512.0 kB", "16.0 GB" (powers of 1000).
std::string byteSizeText(std::int64_t bytes);

/// This process's resident memory in bytes (/proc/self/statm), or 0 if it cannot be read.
std::int64_t residentBytes();
/// The part of it that is not file-backed (resident minus shared pages in /proc/self/statm):
/// what the process allocated. Files mapped read-only (mapped .npy inputs) are page cache the
/// kernel can drop, not memory a request's budget must leave room for.
std::int64_t allocatedResidentBytes();

/// The memory one request takes, charged piece by piece (the request line's parse, each input,
/// the plan's index lists, the outputs, their strings, the sources, the response text) before
/// each is allocated, so a request too big for the limit is refused before it can exhaust it.
/// Thread-safe. Charges are estimates from above: the tests measure the peak they cover.
class MemoryBudget
{
public:
    /// `limit` bytes in all, named `limitName` in errors, of which `alreadyUsed` (what the process
    /// holds before the request) are taken. `limitIsFreeMemory`: the limit is what the process
    /// holds plus the memory free now (availableMemory()), so errors give only the room left.
    MemoryBudget(std::int64_t limit, std::string limitName, std::int64_t alreadyUsed = 0,
                 bool limitIsFreeMemory = false);

    /// Adds `bytes` for `what` ("the output of shape [3,4] int32"). If the total would exceed
    /// the limit, adds nothing and throws OpError(resource_exhausted): "WHAT needs 16.0 GB
    /// (16000000000 bytes); 11.2 GB is available (MemAvailable)".
    void charge(std::int64_t bytes, const std::string& what);
    /// Throws as charge() would if `bytes` more did not fit now (after the reclaim, as there),
    /// and charges nothing: for sizing a whole request from its shapes before any of it is made
    /// (each piece is charged as it is).
    void require(std::int64_t bytes, const std::string& what);
    /// A way to free memory that `alreadyUsed` counts but nobody needs (buffers kept for reuse):
    /// tried once, by the first charge that would otherwise fail. Returns the bytes freed.
    void setReclaim(std::int64_t (*reclaim)()) { m_reclaim = reclaim; }
    /// Everything charged so far, `alreadyUsed` included.
    std::int64_t charged() const { return m_used.load(); }
    std::int64_t limit() const { return m_limit; }

private:
    std::string refusal(std::int64_t bytes, const std::string& what) const;
    /// Calls the reclaim function if it has not been yet and takes what it freed off; returns
    /// whether it did.
    bool reclaimOnce();

    std::int64_t m_limit;
    std::string m_limitName;
    bool m_limitIsFreeMemory;
    std::atomic<std::int64_t> m_alreadyUsed;
    std::atomic<std::int64_t> m_used;
    std::int64_t (*m_reclaim)() = nullptr;
    std::atomic<bool> m_reclaimed{false};
};

} // namespace ss
