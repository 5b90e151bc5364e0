// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory_budget.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace ss {

namespace {

std::optional<std::string> readText(const std::string& path)
{
    std::ifstream file(path);
    if (!file) return std::nullopt;
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::vector<std::string> split(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, separator))
        parts.push_back(part);
    return parts;
}

// A cgroup limit file: a byte count, or "max" (v2). v1 writes "no limit" as a number near 2^63,
// which is no limit either.
std::optional<std::int64_t> readLimitFile(const std::string& path)
{
    const auto text = readText(path);
    if (!text) return std::nullopt;
    std::int64_t v = 0;
    const auto r = std::from_chars(text->data(), text->data() + text->size(), v);
    if (r.ec != std::errc() || v <= 0 || v >= (std::int64_t(1) << 62)) return std::nullopt;
    return v;
}

struct CgroupMount
{
    std::string root;  ///< the part of the hierarchy mounted there
    std::string point; ///< where it is mounted
    bool v2 = false;
};

// The cgroup2 mount and the v1 mounts that carry the memory controller.
std::vector<CgroupMount> memoryMounts(const std::string& root)
{
    std::vector<CgroupMount> mounts;
    const auto text = readText(root + "/proc/self/mountinfo");
    if (!text) return mounts;
    for (const std::string& line : split(*text, '\n')) {
        // id parent major:minor root mountpoint options [optional...] - fstype source superoptions
        const std::vector<std::string> f = split(line, ' ');
        std::size_t dash = 6;
        while (dash < f.size() && f[dash] != "-")
            ++dash;
        if (f.size() < 5 || dash + 3 >= f.size()) continue;
        const std::string& type = f[dash + 1];
        bool memory = type == "cgroup2";
        if (type == "cgroup")
            for (const std::string& option : split(f[dash + 3], ','))
                memory = memory || option == "memory";
        if (memory) mounts.push_back({f[3], f[4], type == "cgroup2"});
    }
    return mounts;
}

// Calls visit(dir, v2) for every memory cgroup directory this process is in and for each of
// their ancestors up to the mount point (every ancestor's limit applies too).
template <class F> void forEachMemoryCgroup(const std::string& root, F&& visit)
{
    const auto cgroups = readText(root + "/proc/self/cgroup");
    if (!cgroups) return;
    const std::vector<CgroupMount> mounts = memoryMounts(root);
    for (const std::string& line : split(*cgroups, '\n')) {
        // hierarchy-id:controllers:path; v2 is "0::/path"
        const std::size_t c1 = line.find(':');
        const std::size_t c2 = c1 == std::string::npos ? c1 : line.find(':', c1 + 1);
        if (c2 == std::string::npos) continue;
        const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
        std::string path = line.substr(c2 + 1);
        const bool v2 = line.substr(0, c1) == "0" && controllers.empty();
        bool v1Memory = false;
        for (const std::string& c : split(controllers, ','))
            v1Memory = v1Memory || c == "memory";
        if (!v2 && !v1Memory) continue;
        for (const CgroupMount& m : mounts) {
            if (m.v2 != v2) continue;
            // Inside a cgroup namespace or a bind mount, the mount shows a subtree.
            if (m.root != "/" && path.starts_with(m.root)) path = path.substr(m.root.size());
            const std::string top = root + m.point;
            std::string dir = top + (path == "/" ? "" : path);
            for (;;) {
                visit(dir, v2);
                if (dir.size() <= top.size()) break;
                dir = dir.substr(0, dir.rfind('/'));
            }
        }
    }
}

// A "key value" line's value in a file like /proc/meminfo or memory.stat ("MemAvailable:" with
// its colon, "inactive_file"), times `unit`.
std::optional<std::int64_t> readKeyedValue(const std::string& text, const std::string& key,
                                           std::int64_t unit)
{
    for (const std::string& line : split(text, '\n')) {
        if (!line.starts_with(key) || line.size() == key.size() || line[key.size()] != ' ')
            continue;
        const std::size_t at = line.find_first_not_of(' ', key.size());
        if (at == std::string::npos) return std::nullopt;
        std::int64_t v = 0;
        const auto r = std::from_chars(line.data() + at, line.data() + line.size(), v);
        if (r.ec != std::errc() || v < 0 || v > std::numeric_limits<std::int64_t>::max() / unit)
            return std::nullopt;
        return v * unit;
    }
    return std::nullopt;
}

} // namespace

MemoryLimit machineMemoryLimit(const std::string& root)
{
    MemoryLimit limit;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    limit.bytes =
        pages > 0 && pageSize > 0 ? std::int64_t(pages) * pageSize : std::int64_t(1) << 62;
    limit.name = "the physical memory";
    forEachMemoryCgroup(root, [&](const std::string& dir, bool v2) {
        const std::string file = dir + (v2 ? "/memory.max" : "/memory.limit_in_bytes");
        if (const auto bytes = readLimitFile(file); bytes && *bytes < limit.bytes) {
            limit.bytes = *bytes;
            limit.name = "the cgroup memory limit (" + file.substr(root.size()) + ")";
        }
    });
    return limit;
}

MemoryLimit availableMemory(const std::string& root)
{
    MemoryLimit available{std::int64_t(1) << 62, "no known limit"};
    if (const auto meminfo = readText(root + "/proc/meminfo"))
        if (const auto bytes = readKeyedValue(*meminfo, "MemAvailable:", 1024)) {
            available.bytes = *bytes;
            available.name = "MemAvailable";
        }
    forEachMemoryCgroup(root, [&](const std::string& dir, bool v2) {
        const std::string file = dir + (v2 ? "/memory.max" : "/memory.limit_in_bytes");
        const auto limit = readLimitFile(file);
        const auto usageText = readText(dir + (v2 ? "/memory.current" : "/memory.usage_in_bytes"));
        if (!limit || !usageText) return;
        std::int64_t usage = 0;
        const auto r =
            std::from_chars(usageText->data(), usageText->data() + usageText->size(), usage);
        if (r.ec != std::errc() || usage < 0) return;
        // The usage counts the page cache; its inactive part is given back before the cgroup
        // runs out (as MemAvailable counts it available).
        if (const auto stat = readText(dir + "/memory.stat"))
            if (const auto inactive =
                    readKeyedValue(*stat, v2 ? "inactive_file" : "total_inactive_file", 1))
                usage -= std::min(usage, *inactive);
        const std::int64_t left = std::max<std::int64_t>(0, *limit - usage);
        if (left < available.bytes) {
            available.bytes = left;
            available.name = "what the cgroup memory limit leaves (" + file.substr(root.size()) +
                             " minus the cgroup's usage)";
        }
    });
    return available;
}

namespace {

std::mutex g_rootMutex;
std::string g_root;

} // namespace

void setAvailableMemoryRoot(const std::string& root)
{
    const std::lock_guard lock(g_rootMutex);
    g_root = root;
}

std::string availableMemoryRoot()
{
    const std::lock_guard lock(g_rootMutex);
    return g_root;
}

std::string byteSizeText(std::int64_t bytes)
{
    if (bytes < 1000) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double value = double(bytes) / 1000;
    int unit = 0;
    // 999.96 MB rounds to "1000.0 MB": move up a unit when the rounded text would.
    while (value >= 999.95 && unit < 5) {
        value /= 1000;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
    return text;
}

std::int64_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::int64_t size = 0, resident = 0;
    if (!(statm >> size >> resident)) return 0;
    return resident * std::int64_t(sysconf(_SC_PAGE_SIZE));
}

std::int64_t allocatedResidentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::int64_t size = 0, resident = 0, fileBacked = 0;
    if (!(statm >> size >> resident >> fileBacked)) return 0;
    return std::max<std::int64_t>(0, resident - fileBacked) * std::int64_t(sysconf(_SC_PAGE_SIZE));
}

MemoryBudget::MemoryBudget(std::int64_t limit, std::string limitName, std::int64_t alreadyUsed,
                           bool limitIsFreeMemory)
    : m_limit(limit), m_limitName(std::move(limitName)), m_limitIsFreeMemory(limitIsFreeMemory),
      m_alreadyUsed(alreadyUsed), m_used(alreadyUsed)
{
}

void MemoryBudget::charge(std::int64_t bytes, const std::string& what)
{
    std::int64_t used = m_used.load();
    for (;;) {
        const std::int64_t total = bytes > m_limit - used ? m_limit + 1 : used + bytes;
        if (total > m_limit && reclaimOnce()) {
            used = m_used.load();
            continue;
        }
        if (total > m_limit) throw OpError(ErrorCode::ResourceExhausted, refusal(bytes, what));
        if (m_used.compare_exchange_weak(used, total)) return;
    }
}

void MemoryBudget::require(std::int64_t bytes, const std::string& what)
{
    if (bytes > m_limit - m_used.load() && !(reclaimOnce() && bytes <= m_limit - m_used.load()))
        throw OpError(ErrorCode::ResourceExhausted, refusal(bytes, what));
}

bool MemoryBudget::reclaimOnce()
{
    if (!m_reclaim || m_reclaimed.exchange(true)) return false;
    const std::int64_t freed = std::min(m_reclaim(), m_alreadyUsed.load());
    m_alreadyUsed -= freed;
    m_used -= freed;
    return true;
}

std::string MemoryBudget::refusal(std::int64_t bytes, const std::string& what) const
{
    // "the input of shape [2000000, 1000] float64 needs 16.0 GB; 11.2 GB is available
    // (MemAvailable)": what is too big, its size, and the room left with where that comes from.
    const std::int64_t used = m_used.load();
    const std::int64_t held = m_alreadyUsed.load();
    std::string message = what + " needs " + byteSizeText(bytes) + " (" + std::to_string(bytes) +
                          " bytes); " + byteSizeText(std::max<std::int64_t>(0, m_limit - used)) +
                          " is available (" + m_limitName;
    if (!m_limitIsFreeMemory) {
        message += " of " + byteSizeText(m_limit);
        if (held > 0) message += ", of which the process already holds " + byteSizeText(held);
    }
    // What the request took before this piece, when it matters (reading its line takes a few kB).
    if (used - held >= 1000000)
        message += "; the rest of this request takes " + byteSizeText(used - held);
    return message + ")";
}

} // namespace ss
