// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/exerciseprogress.h"

#include "core/error.h"
#include "protocol/atomic_file.h"
#include "protocol/json.h"
#include "protocol/read_file.h"
#include "ui/model/filesaside.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QStandardPaths>
#include <QtDebug>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace ss::ui {

ExerciseProgress::ExerciseProgress(QString path) : m_path(std::move(path))
{
    struct stat info = {};
    // lstat: a symlink is there even if what it names is not.
    if (::lstat(QFile::encodeName(m_path).constData(), &info) != 0 && errno == ENOENT) return;
    QString why;
    try {
        const std::string bytes =
            readRegularFile(QFile::encodeName(m_path).toStdString(), maxTextFileBytes());
        const Json json = parseJson(bytes);
        const Json* solved = json.isObject() ? json.find("solved") : nullptr;
        if (!solved || !solved->isArray()) badRequest("it does not hold {\"solved\": [names]}");
        for (const Json& name : solved->toArray())
            if (name.isString()) m_solved.insert(QString::fromStdString(name.toString()));
        return;
    } catch (const OpError& e) {
        why = QString::fromUtf8(e.what());
    }
    m_solved.clear();
    QString moveError;
    const QString aside = moveAside(m_path, &moveError);
    if (aside.isEmpty()) {
        m_blocked = true;
        m_problem = QObject::tr("The exercise progress %1 does not read (%2), and it could not be "
                                "moved aside (%3): progress is not saved until it is moved or "
                                "removed.")
                        .arg(m_path, why, moveError);
    } else {
        m_problem = QObject::tr("The exercise progress %1 does not read (%2). It is kept as %3; "
                                "solved exercises start a new file.")
                        .arg(m_path, why, aside);
    }
}

QString ExerciseProgress::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/exercise-progress.json");
}

QString ExerciseProgress::markSolved(const QString& name)
{
    if (!m_solved.insert(name).second) return {};
    return save();
}

QString ExerciseProgress::reset()
{
    m_solved.clear();
    return save();
}

QString ExerciseProgress::save() const
{
    if (m_blocked)
        return QObject::tr("%1 does not read and could not be moved aside; it is not replaced")
            .arg(m_path);
    // The protocol's writer, as for workspace files: one line a person can read.
    std::string bytes;
    JsonWriter out(bytes);
    out.beginObject();
    out.key("solved");
    out.beginArray();
    for (const QString& name : m_solved)
        out.value(name.toStdString());
    out.endArray();
    out.endObject();
    bytes += '\n';
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return QObject::tr("cannot make the folder %1").arg(QFileInfo(m_path).absolutePath());
    const std::string error = writeFileAtomically(
        m_path, [&](const auto& write) { write(bytes.data(), bytes.size()); });
    return QString::fromStdString(error);
}

} // namespace ss::ui
