// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ss {

/// Maps `bytes` bytes of the open file `fd` from `offset` read-only into memory, for a tensor to
/// use in place instead of a copy. `name` names the file in errors ("'/data/x.npy'"), `path` is
/// its path as opened (mappedFilePath; may be empty). The
/// descriptor is duplicated, so the caller may close its own. Returns null when the range cannot
/// be mapped (the caller then reads it into memory): mmap failed, or too many mappings are live.
///
/// The mapping is guarded: a process-wide SIGBUS handler catches a read from a page the file no
/// longer has (it was truncated under the process), puts zero pages in place of the whole
/// mapping and marks it damaged, so the read goes on instead of killing the process. Whoever
/// used the data asks mappedFileProblem() afterwards and reports the error. SIGBUS from anywhere
/// else goes to the handler that was there before (or kills the process, as it would have).
///
/// The returned pointer is the first byte of the range. The memory is read-only: a write to it
/// crashes. When the last copy of the shared_ptr goes, the mapping is kept for reuse (the last 8
/// such): a later call for the same range of the same file under the same name and path, with
/// the same size and modification time, gets the same pages without mapping and faulting them
/// in again. A kept mapping whose file was deleted, changed or truncated is unmapped on the next
/// call or release, never reused; releaseIdleMappings() unmaps them all.
std::shared_ptr<void> mapFileRange(int fd, std::int64_t offset, std::int64_t bytes,
                                   const std::string& name, const std::string& path = {});

/// Unmaps the mappings kept for reuse (mapFileRange) and closes their files; returns how many.
/// releasePooledBuffers() (tensor.h) calls it too.
int releaseIdleMappings();

/// If `data` lies in a buffer from mapFileRange whose file was truncated while it was read
/// (a SIGBUS caught) or has been changed since it was mapped (another size or modification
/// time), an error message naming the file; otherwise (also for memory that is not a mapped
/// file) nothing.
std::optional<std::string> mappedFileProblem(const void* data);

/// Whether `data` lies in a live buffer from mapFileRange (file-backed memory, not an
/// allocation).
bool isMappedFile(const void* data);

/// Tells the kernel whether the mapped file under [data, data + bytes) is read at scattered
/// places (a sample of it) rather than in order: scattered, a page fault brings in that page
/// alone, instead of the readahead window around it (read_ahead_kb, 8 MiB on some disks), which
/// for a sample a few megabytes apart reads the whole file on its first use. Each `true` is ended
/// by a `false` over the same range; the mapping is read in order again when the last reader of
/// it has ended (two views may sample one file at once). Does nothing for memory that is not a
/// mapped file.
void adviseScatteredReads(const void* data, std::int64_t bytes, bool scattered);

/// adviseScatteredReads for a scope: [data, data + bytes) is read scattered from construction
/// to destruction, if `on` (a sample of a tensor's values spread over its buffer).
class ScatteredReads
{
public:
    ScatteredReads(const void* data, std::int64_t bytes, bool on)
        : m_data(data), m_bytes(bytes), m_on(on)
    {
        if (m_on) adviseScatteredReads(m_data, m_bytes, true);
    }
    ~ScatteredReads()
    {
        if (m_on) adviseScatteredReads(m_data, m_bytes, false);
    }
    ScatteredReads(const ScatteredReads&) = delete;
    ScatteredReads& operator=(const ScatteredReads&) = delete;

private:
    const void* m_data;
    std::int64_t m_bytes;
    bool m_on;
};

/// Bytes [begin, end) from a buffer's first byte.
struct ByteSpan
{
    std::int64_t begin;
    std::int64_t end;
};

/// Asks the kernel for the pages under `spans` of the mapped file at `data`, about to be read at
/// scattered places (adviseScatteredPlanReads, plan_reads.h): they are read now, in the
/// background and all at once, and no more than them, where each first touch of a span would
/// wait for a readahead window around it. Does nothing for memory that is not a mapped file.
void adviseWillRead(const void* data, const std::vector<ByteSpan>& spans);

/// Lets go of this process's mappings of the pages under [data, data + bytes) of a mapped file,
/// read in full and not to be read again soon (an op's input, once the op is done): the pages
/// stay in the page cache while memory allows, and a later read maps them again (a minor fault
/// per page, no disk read), but meanwhile they are not the process's resident memory. Does
/// nothing for memory that is not a mapped file.
void unmapResidentPages(const void* data, std::int64_t bytes);

/// The path given to mapFileRange, if [data, data + bytes) is the whole range it mapped and it
/// was given a path: where a workspace finds the data again instead of holding a copy of it. A
/// part of the range (a result that shares the file's pages, such as `x[7]`) is not the file.
std::optional<std::string> mappedFilePath(const void* data, std::int64_t bytes);

} // namespace ss
