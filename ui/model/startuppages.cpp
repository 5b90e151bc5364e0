// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/startuppages.h"

#include <atomic>

#if defined(__linux__)
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ss::ui {

#if defined(__linux__)
namespace {

// Whether the object's code was patched when it was loaded (text relocations): then its
// read-only segments hold pages of the process's own, which the file does not have.
bool hasTextRelocations(const dl_phdr_info& info)
{
    for (int k = 0; k < info.dlpi_phnum; ++k) {
        if (info.dlpi_phdr[k].p_type != PT_DYNAMIC) continue;
        for (auto* d =
                 reinterpret_cast<const ElfW(Dyn)*>(info.dlpi_addr + info.dlpi_phdr[k].p_vaddr);
             d->d_tag != DT_NULL; ++d)
            if (d->d_tag == DT_TEXTREL || (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_TEXTREL)))
                return true;
    }
    return false;
}

// The kernel's vDSO: its pages are no file's.
bool isTheVdso(const dl_phdr_info& info)
{
    const std::uintptr_t vdso = getauxval(AT_SYSINFO_EHDR);
    for (int k = 0; k < info.dlpi_phnum; ++k) {
        const ElfW(Phdr)& segment = info.dlpi_phdr[k];
        const std::uintptr_t start = info.dlpi_addr + segment.p_vaddr;
        if (segment.p_type == PT_LOAD && vdso >= start && vdso < start + segment.p_memsz)
            return true;
    }
    return false;
}

// The object's read-only segments' whole pages leave the resident memory; adds their bytes.
int dropReadOnlySegments(dl_phdr_info* info, std::size_t, void* total)
{
    if (isTheVdso(*info) || hasTextRelocations(*info)) return 0;
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    for (int k = 0; k < info->dlpi_phnum; ++k) {
        const ElfW(Phdr)& segment = info->dlpi_phdr[k];
        // A writable segment has the process's own pages (its data, the relocated pointers that
        // RELRO then makes read-only): only the file's may go. A page shared with a neighbouring
        // segment is left alone.
        if (segment.p_type != PT_LOAD || (segment.p_flags & PF_W) != 0) continue;
        const std::uintptr_t start = info->dlpi_addr + segment.p_vaddr;
        const std::uintptr_t begin = (start + page - 1) / page * page;
        const std::uintptr_t end = (start + segment.p_memsz) / page * page;
        // MADV_DONTNEED on a private file mapping never written drops the page table's entries;
        // the next read maps the file's page again.
        if (end > begin && madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED) == 0)
            *static_cast<std::int64_t*>(total) += std::int64_t(end - begin);
    }
    return 0;
}

} // namespace
#endif

std::int64_t dropStartUpPages()
{
    std::int64_t bytes = 0;
#if defined(__linux__)
    // The loader's list of the objects mapped, walked under its lock: no library is unloaded
    // (and nothing else mapped in its place) while its segments are advised.
    dl_iterate_phdr(dropReadOnlySegments, &bytes);
#endif
    return bytes;
}

void dropStartUpPagesOnce(Executor& pool)
{
    static std::atomic<bool> asked{false};
    if (!asked.exchange(true)) pool.submit({}, [](JobContext&) { dropStartUpPages(); });
}

} // namespace ss::ui
