// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/filestamp.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

namespace ss::ui {

FileStamp FileStamp::of(const QString& path)
{
    FileStamp stamp;
    const QFileInfo info(path);
    if (!info.isFile()) return stamp;
    stamp.m_exists = true;
    stamp.m_size = info.size();
    stamp.m_modified = info.lastModified();
    if (stamp.m_size <= kHashedBytes) {
        QFile file(path);
        QCryptographicHash hash(QCryptographicHash::Sha256);
        // Unreadable now (permissions changed): a digest no readable file has, so it differs.
        if (file.open(QIODevice::ReadOnly) && hash.addData(&file))
            stamp.m_digest = hash.result();
        else
            stamp.m_digest = QByteArrayLiteral("unreadable");
    }
    return stamp;
}

FileStamp::Change FileStamp::compare(const QString& path) const
{
    const QFileInfo info(path);
    if (!info.isFile()) return Change::Missing;
    if (!m_exists || info.size() != m_size) return Change::Modified;
    if (m_digest.isEmpty())
        return info.lastModified() == m_modified ? Change::None : Change::Modified;
    // Same size: only the bytes tell (a save in the same millisecond keeps the time).
    return of(path).m_digest == m_digest ? Change::None : Change::Modified;
}

} // namespace ss::ui
