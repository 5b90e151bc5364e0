// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/mapped_file.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ss {

namespace {

// A file truncated under a mapping turns every read of a page past its new end into SIGBUS,
// which kills the process by default: in the middle of a copy kernel, on any worker thread. The
// reads cannot all be wrapped (kernels, checksums, the views' samplers), so the handler repairs
// the memory instead: zero pages in place of the mapping let the read finish, and the mapping is
// marked damaged for whoever asks afterwards (mappedFileProblem), who reports the error. The
// handler may only touch what is safe in a signal handler: the slots' atomics and mmap.
constexpr int kSlots = 256;

struct Slot
{
    std::atomic<std::uintptr_t> begin{0}; ///< first mapped page; 0: the slot is free
    std::atomic<std::uintptr_t> end{0};   ///< past the last mapped page
    std::atomic<bool> damaged{false};
    // Under g_mutex, outside the handler:
    bool used = false;
    int refs = 0;                ///< live buffers handed out; 0 with `used`: kept for reuse
    std::uint64_t idleSince = 0; ///< g_tick when it was last released (the oldest idle goes first)
    int fd = -1;
    std::string name;
    std::string path;
    struct stat stat
    {
    };
    std::int64_t start = 0;      ///< the file offset mapped at `begin`
    std::size_t length = 0;      ///< bytes mapped
    std::int64_t dataOffset = 0; ///< the range asked for starts at begin + dataOffset
    int scatteredReaders = 0;    ///< adviseScatteredReads(..., true) not yet ended
};

Slot g_slots[kSlots];
std::mutex g_mutex;
std::uint64_t g_tick = 0;

// A mapping whose buffers are all gone stays mapped for the next read of the same range of the
// same unchanged file: a script or the CLI's `run` reads the same .npy input request after
// request. Mapping it afresh costs little, but the first touch of every page of a new mapping
// faults again (under a paravirtualised MMU, the hypervisor builds its shadow page tables page by
// page: about 4 ms per 64 MiB read, as much as the copy that reads it). The last few are kept.
constexpr int kKeptIdleMappings = 8;
struct sigaction g_previous
{
};

Slot* slotOf(std::uintptr_t address)
{
    for (Slot& s : g_slots) {
        const std::uintptr_t begin = s.begin.load(std::memory_order_acquire);
        if (begin != 0 && address >= begin && address < s.end.load(std::memory_order_acquire))
            return &s;
    }
    return nullptr;
}

void onSigbus(int signal, siginfo_t* info, void* context)
{
    if (Slot* s = slotOf(reinterpret_cast<std::uintptr_t>(info->si_addr))) {
        const std::uintptr_t begin = s->begin.load(std::memory_order_acquire);
        const std::uintptr_t end = s->end.load(std::memory_order_acquire);
        // The whole mapping, not just the page: the data is wrong either way, and one repair
        // spares a signal per page.
        void* p = mmap(reinterpret_cast<void*>(begin), end - begin, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (p != MAP_FAILED) {
            s->damaged.store(true, std::memory_order_release);
            return; // the faulting read runs again, on a zero page
        }
    }
    // Not a mapped input: what would have happened without this handler.
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(signal, info, context);
        return;
    }
    if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
        return;
    }
    struct sigaction fallback
    {
    };
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGBUS, &fallback, nullptr);
    // A fault runs its instruction again and now ends the process; a sent signal does not.
    if (info->si_code <= 0) raise(SIGBUS);
}

void installHandler()
{
    struct sigaction action
    {
    };
    action.sa_sigaction = onSigbus;
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &g_previous);
}

bool sameFile(const struct stat& a, const struct stat& b)
{
    return a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
           a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

// Under g_mutex: unmaps a slot's mapping and frees the slot.
void unmapSlot(Slot& s)
{
    const std::uintptr_t begin = s.begin.load(std::memory_order_acquire);
    s.begin.store(0, std::memory_order_release);
    s.end.store(0, std::memory_order_release);
    munmap(reinterpret_cast<void*>(begin), s.length);
    close(s.fd);
    s.fd = -1;
    s.name.clear();
    s.path.clear();
    s.refs = 0;
    s.scatteredReaders = 0;
    s.used = false;
}

bool isIdle(const Slot& s)
{
    return s.used && s.refs == 0;
}

// Under g_mutex: whether an idle mapping still shows its file as it was mapped. A file deleted
// (its disk space stays taken while it is mapped), changed, truncated or damaged is not kept.
bool stillCurrent(const Slot& s)
{
    struct stat now
    {
    };
    return !s.damaged.load(std::memory_order_acquire) && fstat(s.fd, &now) == 0 &&
           now.st_nlink > 0 && sameFile(now, s.stat);
}

// Under g_mutex: unmaps idle mappings whose file changed, then the oldest ones past `keep`.
void trimIdle(int keep)
{
    int idle = 0;
    for (Slot& s : g_slots) {
        if (!isIdle(s)) continue;
        if (stillCurrent(s))
            ++idle;
        else
            unmapSlot(s);
    }
    while (idle > keep) {
        Slot* oldest = nullptr;
        for (Slot& s : g_slots)
            if (isIdle(s) && (!oldest || s.idleSince < oldest->idleSince)) oldest = &s;
        unmapSlot(*oldest);
        --idle;
    }
}

// Under g_mutex: a buffer over the slot's range, counted in its references.
std::shared_ptr<void> handOut(Slot& slot)
{
    ++slot.refs;
    auto* data =
        reinterpret_cast<char*>(slot.begin.load(std::memory_order_acquire)) + slot.dataOffset;
    return std::shared_ptr<void>(data, [&slot](void*) {
        std::lock_guard guard(g_mutex);
        if (--slot.refs > 0) return;
        slot.idleSince = ++g_tick;
        if (slot.damaged.load(std::memory_order_acquire))
            unmapSlot(slot);
        else
            trimIdle(kKeptIdleMappings);
    });
}

} // namespace

std::shared_ptr<void> mapFileRange(int fd, std::int64_t offset, std::int64_t bytes,
                                   const std::string& name, const std::string& path)
{
    static std::once_flag installed;
    std::call_once(installed, installHandler);
    if (bytes <= 0 || offset < 0) return nullptr;
    const auto page = std::int64_t(sysconf(_SC_PAGESIZE));
    const std::int64_t start = offset / page * page;
    const auto length = std::size_t(offset - start + bytes);
    struct stat st
    {
    };
    if (fstat(fd, &st) != 0 || st.st_size < offset + bytes) return nullptr;
    std::unique_lock lock(g_mutex);
    trimIdle(kKeptIdleMappings); // drops kept mappings of files deleted or changed since
    // The same range of the same unchanged file, mapped before and no longer used: its pages
    // are mapped already. Only an idle one: a live one may carry another reader's advice
    // (adviseScatteredReads), and errors name the file as this read does.
    for (Slot& s : g_slots) {
        if (!isIdle(s) || s.stat.st_dev != st.st_dev || s.stat.st_ino != st.st_ino ||
            !sameFile(s.stat, st) || s.start != start || s.length != length || s.name != name ||
            s.path != path || !stillCurrent(s))
            continue;
        madvise(reinterpret_cast<void*>(s.begin.load(std::memory_order_acquire)), s.length,
                MADV_NORMAL); // as a new mapping reads
        return handOut(s);
    }
    auto freeSlot = [] {
        for (Slot& s : g_slots)
            if (!s.used) return &s;
        return static_cast<Slot*>(nullptr);
    };
    Slot* slot = freeSlot();
    if (!slot) {
        trimIdle(0); // kept mappings give way to a new one
        slot = freeSlot();
    }
    if (!slot) return nullptr;
    const int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) return nullptr;
    void* base = mmap(nullptr, length, PROT_READ, MAP_PRIVATE, own, off_t(start));
    if (base == MAP_FAILED) {
        close(own);
        return nullptr;
    }
    slot->used = true;
    slot->refs = 0;
    slot->fd = own;
    slot->name = name;
    slot->path = path;
    slot->stat = st;
    slot->start = start;
    slot->length = length;
    slot->dataOffset = offset - start;
    slot->damaged.store(false);
    const auto begin = reinterpret_cast<std::uintptr_t>(base);
    slot->end.store(begin + length, std::memory_order_release);
    slot->begin.store(begin, std::memory_order_release);
    return handOut(*slot);
}

int releaseIdleMappings()
{
    std::lock_guard lock(g_mutex);
    int released = 0;
    for (Slot& s : g_slots)
        if (isIdle(s)) {
            unmapSlot(s);
            ++released;
        }
    return released;
}

std::optional<std::string> mappedFileProblem(const void* data)
{
    std::lock_guard lock(g_mutex);
    Slot* s = slotOf(reinterpret_cast<std::uintptr_t>(data));
    if (!s) return std::nullopt;
    struct stat now
    {
    };
    const bool readable = fstat(s->fd, &now) == 0;
    if (s->damaged.load(std::memory_order_acquire) || (readable && now.st_size < s->stat.st_size))
        return s->name + " was truncated while it was being read (" +
               std::to_string(s->stat.st_size) + " bytes when opened, " +
               (readable ? std::to_string(now.st_size) : std::string("unknown")) +
               " now): no result was made from it; run the request again on the complete file";
    if (!readable || !sameFile(now, s->stat))
        return s->name +
               " was changed while it was being read (its size or modification time changed): no "
               "result was made from it; run the request again";
    return std::nullopt;
}

bool isMappedFile(const void* data)
{
    std::lock_guard lock(g_mutex);
    return slotOf(reinterpret_cast<std::uintptr_t>(data)) != nullptr;
}

namespace {

// Gives `advice` for the pages under [data, data + bytes). Advice only: if the kernel refuses
// it, reads are as before.
void advisePages(const void* data, std::int64_t bytes, int advice)
{
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<std::uintptr_t>(data) / page * page;
    const auto end = reinterpret_cast<std::uintptr_t>(data) + std::uintptr_t(bytes);
    madvise(reinterpret_cast<void*>(first), end - first, advice);
}

// advisePages for the pages of a mapped file; nothing for other memory.
void adviseMapped(const void* data, std::int64_t bytes, int advice)
{
    if (data && bytes > 0 && isMappedFile(data)) advisePages(data, bytes, advice);
}

} // namespace

void adviseScatteredReads(const void* data, std::int64_t bytes, bool scattered)
{
    if (!data || bytes <= 0) return;
    // Several samplers may read one mapping at once (the input's and the output's heat maps of
    // x[:n] of a file): it is read in order again only when the last of them is done. Before,
    // the first to finish turned readahead back on under the others, and opening a 16 GB file
    // read 7.9 GB of it to sample it instead of 1.1 GB (4.2 s instead of 1.2-1.7 s, cold).
    std::lock_guard guard(g_mutex);
    Slot* s = slotOf(reinterpret_cast<std::uintptr_t>(data));
    if (!s) return;
    if (scattered) {
        ++s->scatteredReaders;
        advisePages(data, bytes, MADV_RANDOM);
    } else if (s->scatteredReaders > 0 && --s->scatteredReaders == 0) {
        advisePages(reinterpret_cast<void*>(s->begin.load(std::memory_order_acquire)),
                    std::int64_t(s->length), MADV_NORMAL);
    }
}

void adviseWillRead(const void* data, const std::vector<ByteSpan>& spans)
{
    if (!data || !isMappedFile(data)) return;
    // The kernel reads at most its readahead window (or the device's largest request) of one
    // MADV_WILLNEED, whatever the range: a long span is asked for in parts.
    constexpr std::int64_t kPart = std::int64_t(512) << 10;
    const auto* base = static_cast<const char*>(data);
    for (const ByteSpan& span : spans)
        for (std::int64_t at = span.begin; at < span.end; at += kPart)
            advisePages(base + at, std::min(kPart, span.end - at), MADV_WILLNEED);
}

void unmapResidentPages(const void* data, std::int64_t bytes)
{
    // The mapping is read-only and private: it has no page of its own to lose, only the page
    // table's entries for the file's pages (or for the zero pages that replaced a truncated
    // file's, which come back as zero pages).
    adviseMapped(data, bytes, MADV_DONTNEED);
}

std::optional<std::string> mappedFilePath(const void* data, std::int64_t bytes)
{
    std::lock_guard lock(g_mutex);
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    const Slot* s = slotOf(at);
    if (!s || s->path.empty()) return std::nullopt;
    const std::uintptr_t first = s->begin.load(std::memory_order_acquire) + s->dataOffset;
    if (at != first || bytes != std::int64_t(s->length) - s->dataOffset) return std::nullopt;
    return s->path;
}

} // namespace ss
