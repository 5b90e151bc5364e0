// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's readers take paths, as the app gives them: each input is written to one file in a
// directory of this process's own, and read from there.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <cstdlib>

namespace ss::fuzzing {

/// Writes `data` to `name` in this process's scratch directory; returns the path.
inline QString writeInput(const std::uint8_t* data, std::size_t size, const QString& name)
{
    static QTemporaryDir dir;
    if (!dir.isValid()) std::abort();
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) std::abort();
    if (file.write(reinterpret_cast<const char*>(data), qint64(size)) != qint64(size)) std::abort();
    return path;
}

} // namespace ss::fuzzing
