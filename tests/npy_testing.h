// SPDX-License-Identifier: GPL-3.0-or-later
// .npy files written byte by byte, for the suites that need a header no array of this machine
// can have behind it: huge shapes over a sparse file, hostile shapes, odd data offsets.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

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

} // namespace ss::testing
