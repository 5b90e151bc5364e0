// SPDX-License-Identifier: GPL-3.0-or-later
// .npy files written byte by byte, for the suites that need a header no array of this machine
// can have behind it: huge shapes over a sparse file, hostile shapes, odd data offsets.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace ss::testing {

/// A version 1.0 .npy header as NumPy writes it: the dict padded with spaces and a newline so
/// that the data starts at `dataOffset`, by default the next multiple of 64. Aborts the suite if
/// the dict does not fit before `dataOffset`.
inline QByteArray npyHeader(const QByteArray& descr, const QByteArray& shape, bool fortran = false,
                            int dataOffset = 0)
{
    QByteArray dict = "{'descr': '" + descr +
                      "', 'fortran_order': " + (fortran ? "True" : "False") +
                      ", 'shape': " + shape + ", }";
    constexpr int kPrefix = 10; // magic, version, header length
    if (dataOffset == 0) dataOffset = (kPrefix + int(dict.size()) + 1 + 63) / 64 * 64;
    const int pad = dataOffset - kPrefix - int(dict.size()) - 1;
    if (pad < 0) qFatal("the .npy header does not fit in %d bytes", dataOffset);
    dict += QByteArray(pad, ' ') + '\n';
    QByteArray header("\x93NUMPY\x01\x00", 8);
    header += char(dict.size() & 0xFF);
    header += char(dict.size() >> 8);
    return header + dict;
}

/// Writes a .npy file of `descr` and `shape` whose `dataBytes` of data are a hole: sparse, it
/// takes no disk however large it says it is. False if it could not be written.
inline bool writeSparseNpy(const QString& path, const QByteArray& descr, const QByteArray& shape,
                           qint64 dataBytes)
{
    const QByteArray header = npyHeader(descr, shape);
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(header) == header.size() &&
           f.resize(header.size() + dataBytes);
}

/// Takes the file at `path` out of the page cache (its written pages flushed first), so that a
/// read of it is a cold read. False if it could not be opened.
inline bool evictFromPageCache(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY);
    if (fd < 0) return false;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
    return true;
}

/// How many of the pages under [data, data + bytes) of a mapped file are in the page cache
/// (mincore over the whole pages), or -1 if mincore fails.
inline std::int64_t cachedPages(const void* data, std::int64_t bytes)
{
    const auto page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<std::uintptr_t>(data) / page * page;
    const auto end = reinterpret_cast<std::uintptr_t>(data) + std::uintptr_t(bytes);
    std::vector<unsigned char> resident((end - first + page - 1) / page);
    if (::mincore(reinterpret_cast<void*>(first), end - first, resident.data()) != 0) return -1;
    return std::count_if(resident.begin(), resident.end(), [](unsigned char c) { return c & 1; });
}

} // namespace ss::testing
