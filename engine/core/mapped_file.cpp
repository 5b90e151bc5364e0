// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/mapped_file.h"

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
    int fd = -1;
    std::string name;
    std::string path;
    struct stat stat
    {
    };
};

Slot g_slots[kSlots];
std::mutex g_mutex;
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
    Slot* slot = nullptr;
    for (Slot& s : g_slots)
        if (!s.used) {
            slot = &s;
            break;
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
    slot->fd = own;
    slot->name = name;
    slot->path = path;
    slot->stat = st;
    slot->damaged.store(false);
    const auto begin = reinterpret_cast<std::uintptr_t>(base);
    slot->end.store(begin + length, std::memory_order_release);
    slot->begin.store(begin, std::memory_order_release);
    lock.unlock();
    auto* data = static_cast<char*>(base) + (offset - start);
    return std::shared_ptr<void>(data, [slot, base, length](void*) {
        std::lock_guard guard(g_mutex);
        slot->begin.store(0, std::memory_order_release);
        slot->end.store(0, std::memory_order_release);
        munmap(base, length);
        close(slot->fd);
        slot->fd = -1;
        slot->name.clear();
        slot->path.clear();
        slot->used = false;
    });
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

void adviseScatteredReads(const void* data, std::int64_t bytes, bool scattered)
{
    if (!data || bytes <= 0 || !isMappedFile(data)) return;
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<std::uintptr_t>(data) / page * page;
    const auto end = reinterpret_cast<std::uintptr_t>(data) + std::uintptr_t(bytes);
    // Advice only: if the kernel refuses it, reads are as before.
    madvise(reinterpret_cast<void*>(first), end - first, scattered ? MADV_RANDOM : MADV_NORMAL);
}

std::optional<std::string> mappedFilePath(const void* data)
{
    std::lock_guard lock(g_mutex);
    const Slot* s = slotOf(reinterpret_cast<std::uintptr_t>(data));
    if (!s || s->path.empty()) return std::nullopt;
    return s->path;
}

} // namespace ss
