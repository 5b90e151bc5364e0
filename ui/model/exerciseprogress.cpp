// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/exerciseprogress.h"

#include "protocol/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QStandardPaths>
#include <QtDebug>

namespace ss::ui {

ExerciseProgress::ExerciseProgress(QString path) : m_path(std::move(path))
{
    QFile file(m_path);
    if (!file.exists()) return;
    if (!file.open(QIODevice::ReadOnly)) {
        qWarning("exercise progress %s: %s", qPrintable(m_path), qPrintable(file.errorString()));
        return;
    }
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (!doc.isObject() || !doc.object().value(QStringLiteral("solved")).isArray()) {
        qWarning("exercise progress %s does not read (%s); starting afresh", qPrintable(m_path),
                 qPrintable(error.errorString()));
        return;
    }
    for (const QJsonValue& name : doc.object().value(QStringLiteral("solved")).toArray())
        if (name.isString()) m_solved.insert(name.toString());
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
    QJsonArray names;
    for (const QString& name : m_solved)
        names.append(name);
    const QByteArray bytes = QJsonDocument(QJsonObject{{QStringLiteral("solved"), names}})
                                 .toJson(QJsonDocument::Indented);
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return QObject::tr("cannot make the folder %1").arg(QFileInfo(m_path).absolutePath());
    const std::string error = writeFileAtomically(
        m_path, [&](const auto& write) { write(bytes.constData(), std::size_t(bytes.size())); });
    return QString::fromStdString(error);
}

} // namespace ss::ui
