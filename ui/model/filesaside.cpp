// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/filesaside.h"

#include "core/error.h"
#include "protocol/read_file.h"

#include <QCoreApplication>
#include <QFile>
#include <QObject>
#include <QStandardPaths>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ss::ui {

QString moveAside(const QString& path, QString* why)
{
    const QByteArray from = QFile::encodeName(path);
    for (int n = 1; n < 10000; ++n) {
        const QByteArray to = QFile::encodeName(path + QStringLiteral(".unreadable-%1").arg(n));
        // RENAME_NOREPLACE: a name already taken is never replaced.
        if (::renameat2(AT_FDCWD, from.constData(), AT_FDCWD, to.constData(), RENAME_NOREPLACE) ==
            0)
            return QFile::decodeName(to);
        if (errno == EEXIST) continue;
        if (errno != EINVAL) {
            *why = QString::fromLocal8Bit(std::strerror(errno));
            return {};
        }
        // A file system without RENAME_NOREPLACE: a hard link fails on a taken name too.
        if (::link(from.constData(), to.constData()) == 0) {
            if (::unlink(from.constData()) == 0) return QFile::decodeName(to);
            *why = QString::fromLocal8Bit(std::strerror(errno));
            ::unlink(to.constData());
            return {};
        }
        if (errno == EEXIST) continue;
        *why = QString::fromLocal8Bit(std::strerror(errno));
        return {};
    }
    *why = QObject::tr("every name for a copy is taken");
    return {};
}

QStringList checkSettingsFiles()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    const QString organization = QCoreApplication::organizationName();
    QStringList files;
    if (!organization.isEmpty())
        files << dir + u'/' + organization + u'/' + QCoreApplication::applicationName() +
                     QStringLiteral(".conf")
              << dir + u'/' + organization + QStringLiteral(".conf");
    QStringList messages;
    for (const QString& path : files) {
        struct stat info = {};
        if (::lstat(QFile::encodeName(path).constData(), &info) != 0) continue; // none: fine
        QString why;
        try {
            readRegularFile(path, maxTextFileBytes());
            continue;
        } catch (const OpError& e) {
            why = QString::fromUtf8(e.what());
        }
        QString moveError;
        const QString aside = moveAside(path, &moveError);
        messages << (aside.isEmpty()
                         ? QObject::tr("The settings %1 do not read (%2) and could not be moved "
                                       "aside (%3).")
                               .arg(path, why, moveError)
                         : QObject::tr("The settings %1 do not read (%2). They are kept as %3; "
                                       "SliceScope starts with its default settings.")
                               .arg(path, why, aside));
    }
    return messages;
}

} // namespace ss::ui
