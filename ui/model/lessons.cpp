// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/lessons.h"

#include "core/error.h"
#include "core/op.h"
#include "protocol/read_file.h"
#include "protocol/tensor_json.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtDebug>

namespace ss::ui {

namespace {

Lesson readLesson(const QString& path, const Limits& limits)
{
    const QByteArray bytes = readRegularFile(path, maxTextFileBytes());
    const Json json = parseJson(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    Lesson lesson;
    static const QRegularExpression prefix(QStringLiteral("^\\d+-"));
    lesson.name = QFileInfo(path).completeBaseName().remove(prefix);
    const Json* id = json.find("id");
    const Json* op = json.find("op");
    if (!id || !id->isObject() || !op || !op->isString())
        badRequest("a lesson needs an id object (title, explanation) and an op");
    if (const Json* group = id->find("group"); group && group->isString())
        lesson.group = QString::fromStdString(group->toString());
    if (const Json* model = id->find("model"); model && model->isString()) {
        const Json* node = id->find("node");
        if (!node || !node->isString()) badRequest("a lesson with a model names its node");
        lesson.model = QString::fromStdString(model->toString());
        lesson.node = QString::fromStdString(node->toString());
    }
    if (const Json* actual = id->find("actual")) {
        const Json* from = actual->isObject() ? actual->find("from") : nullptr;
        const Json* tensor = actual->isObject() ? actual->find("tensor") : nullptr;
        if (!from || !from->isString() || !tensor)
            badRequest("a lesson's actual output needs \"from\" (who gave it) and \"tensor\"");
        lesson.actualFrom = QString::fromStdString(from->toString());
        lesson.actual = tensorFromJson(*tensor, limits);
    }
    if (!findOp(op->toString())) {
        const Json* title = id->find("title");
        lesson.workspace.title =
            title && title->isString() ? QString::fromStdString(title->toString()) : lesson.name;
        lesson.unavailable = QObject::tr("needs the op '%1', which this build does not have yet")
                                 .arg(QString::fromStdString(op->toString()));
        return lesson;
    }
    lesson.workspace = workspaceFromJson(json, limits, &lesson.expect);
    if (const Json* faces = id->find("faces")) {
        if (!faces->isObject()) badRequest("faces must map view titles to [row dim, col dim]");
        for (const auto& [title, dims] : faces->toObject()) {
            const Json::Array pair = dims.isArray() ? dims.toArray() : Json::Array{};
            if (pair.size() != 2 || !pair[0].isInt64() || !pair[1].isInt64())
                badRequest("faces: \"" + title + "\" needs [row dim, col dim]");
            lesson.faces[QString::fromStdString(title)] = {int(pair[0].toInt64()),
                                                           int(pair[1].toInt64())};
        }
    }
    if (lesson.workspace.title.isEmpty() || lesson.workspace.explanation.isEmpty())
        badRequest("a lesson needs a title and an explanation");
    return lesson;
}

} // namespace

const std::vector<Lesson>& lessons()
{
    static const std::vector<Lesson> all = [] {
        std::vector<Lesson> list;
        // Read once: each reading takes the mount table and the cgroup's files.
        const Limits limits = Limits::machineDefault();
        const QDir dir(QStringLiteral(":/lessons"));
        for (const QString& file :
             dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            try {
                list.push_back(readLesson(dir.filePath(file), limits));
            } catch (const OpError& e) {
                qWarning("lesson %s does not read: %s", qPrintable(file), e.what());
            }
        }
        return list;
    }();
    return all;
}

const Lesson* findLesson(const QString& name)
{
    for (const Lesson& lesson : lessons())
        if (lesson.name == name) return &lesson;
    return nullptr;
}

} // namespace ss::ui
