// SPDX-License-Identifier: GPL-3.0-or-later
// What a workspace file held when the window last read or wrote it, so that a change made on
// disk since (another window's Save, an editor, git checkout) is noticed before it is
// overwritten or taken for the window's own.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace ss::ui {

class FileStamp
{
public:
    /// How the file on disk compares with the stamp.
    enum class Change { None, Modified, Missing };

    /// No file: compares as Missing against any path.
    FileStamp() = default;
    /// Reads the file's size, modification time and (up to kHashedBytes) a digest of its bytes.
    static FileStamp of(const QString& path);

    /// Whether the file at `path` differs from the stamp: other bytes (a rewrite with the same
    /// bytes, e.g. a touch, is no change), or gone. Files over kHashedBytes compare by size and
    /// modification time alone, so that a check on every window focus stays cheap.
    Change compare(const QString& path) const;

    bool exists() const { return m_exists; }
    bool operator==(const FileStamp& other) const = default;

    /// Bigger files are not read back on every check.
    static constexpr qint64 kHashedBytes = qint64(64) << 20;

private:
    bool m_exists = false;
    qint64 m_size = -1;
    QDateTime m_modified;
    QByteArray m_digest; ///< empty for files over kHashedBytes
};

} // namespace ss::ui
