// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/exercises.h"

#include "core/error.h"
#include "protocol/json.h"
#include "protocol/read_file.h"
#include "ui/model/workspacefile.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QtDebug>

#include <set>

namespace ss::ui {

namespace {

QString text(const Json& object, const char* key, bool required = true)
{
    const Json* value = object.find(key);
    if (!value || !value->isString() || value->toString().empty()) {
        if (!required && !value) return {};
        badRequest(std::string("needs a text '") + key + "'");
    }
    return QString::fromStdString(value->toString());
}

// `base` with the members of `answer` ("attrs", "inputs", each an object) laid over it member by
// member, so an answer names only what it changes: {"attrs": {"expr": "x[1]"}}.
Json overlay(const Json& base, const Json& answer)
{
    if (!answer.isObject()) badRequest("an answer must be an object such as {\"attrs\": {...}}");
    Json::Object merged = base.toObject();
    for (const auto& [key, value] : answer.toObject()) {
        if (key != "attrs" && key != "inputs")
            badRequest("an answer may only give \"attrs\" and \"inputs\", not \"" + key + "\"");
        if (!value.isObject()) badRequest("an answer's \"" + key + "\" must be an object");
        auto slot = std::find_if(merged.begin(), merged.end(),
                                 [&key = key](const Json::Member& m) { return m.first == key; });
        if (slot == merged.end()) {
            merged.emplace_back(key, value);
            continue;
        }
        Json::Object members = slot->second.isObject() ? slot->second.toObject() : Json::Object{};
        for (const auto& member : value.toObject()) {
            auto same = std::find_if(members.begin(), members.end(), [&](const Json::Member& m) {
                return m.first == member.first;
            });
            if (same != members.end())
                same->second = member.second;
            else
                members.push_back(member);
        }
        slot->second = Json(std::move(members));
    }
    return Json(std::move(merged));
}

std::vector<Workspace> answers(const Json& exercise, const Json& request, const char* key,
                               const Limits& limits)
{
    std::vector<Workspace> list;
    const Json* array = exercise.find(key);
    if (!array) return list;
    if (!array->isArray()) badRequest(std::string("'") + key + "' must be a list of answers");
    for (const Json& answer : array->toArray())
        list.push_back(workspaceFromJson(overlay(request, answer), limits));
    return list;
}

Exercise readExercise(const Json& json, const Limits& limits)
{
    if (!json.isObject()) badRequest("an exercise must be an object");
    Exercise exercise;
    exercise.name = text(json, "name");
    exercise.title = text(json, "title");
    exercise.task = text(json, "task");
    const Json* op = json.find("op");
    if (!op || !op->isString()) badRequest("needs an 'op'");
    Json::Object request{{"op", *op}};
    // "framework": whose indexing rules read the expression (the request's member), kept by
    // every answer.
    for (const char* key : {"inputs", "attrs", "framework"})
        if (const Json* value = json.find(key)) request.emplace_back(key, *value);
    const Json requestJson(std::move(request));
    exercise.start = workspaceFromJson(requestJson, limits);
    exercise.solutions = answers(json, requestJson, "solutions", limits);
    exercise.wrong = answers(json, requestJson, "wrong", limits);
    if (exercise.solutions.empty())
        badRequest("needs at least one answer in 'solutions' (the first defines the target)");
    return exercise;
}

} // namespace

ExerciseSet readExerciseSet(const QString& path)
{
    // One rule for every file read (regular files only, a size cap); the cap is the CLI's
    // request-line limit. The error names the path already.
    const QByteArray bytes = readRegularFile(path, maxTextFileBytes());
    ExerciseSet set;
    set.file = path;
    set.name = QFileInfo(path).completeBaseName();
    try {
        const Json json = parseJson(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        if (!json.isObject()) badRequest("a set file holds one object {\"title\", \"exercises\"}");
        set.title = text(json, "title");
        const Json* list = json.find("exercises");
        if (!list || !list->isArray() || list->toArray().empty())
            badRequest("needs a non-empty list 'exercises'");
        // Read once for the set: each reading takes the mount table and the cgroup's files
        // (once per exercise and answer, 265 readings took a quarter of the window's start-up).
        const Limits limits = Limits::machineDefault();
        for (const Json& item : list->toArray()) {
            try {
                set.exercises.push_back(readExercise(item, limits));
            } catch (const OpError& e) {
                const Json* name = item.isObject() ? item.find("name") : nullptr;
                const std::string which =
                    name && name->isString()
                        ? "exercise '" + name->toString() + "'"
                        : "exercise " + std::to_string(set.exercises.size() + 1);
                throw OpError(e.code(), which + ": " + e.what());
            }
        }
    } catch (const OpError& e) {
        throw OpError(e.code(), path.toStdString() + ": " + e.what());
    }
    return set;
}

QString userExerciseDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/exercises");
}

const std::vector<ExerciseSet>& exerciseSets(QStringList* problems)
{
    static QStringList failures;
    static const std::vector<ExerciseSet> all = [] {
        std::vector<ExerciseSet> sets;
        std::set<QString> names;
        const auto readDir = [&](const QDir& dir) {
            // QDir::System too: a FIFO or a device named *.json is reported as such rather
            // than passed over in silence (the reader refuses it at once).
            for (const QString& file : dir.entryList({QStringLiteral("*.json")},
                                                     QDir::Files | QDir::System, QDir::Name)) {
                try {
                    ExerciseSet set = readExerciseSet(dir.filePath(file));
                    // Progress is kept by exercise name: a second exercise of one name would
                    // share the first one's tick.
                    for (const Exercise& exercise : set.exercises)
                        if (!names.insert(exercise.name).second)
                            badRequest(file.toStdString() + ": exercise name '" +
                                       exercise.name.toStdString() + "' is already taken");
                    sets.push_back(std::move(set));
                } catch (const OpError& e) {
                    failures << QString::fromUtf8(e.what());
                    qWarning("exercise set %s does not read: %s", qPrintable(file), e.what());
                }
            }
        };
        readDir(QDir(QStringLiteral(":/exercises")));
        readDir(QDir(userExerciseDir()));
        return sets;
    }();
    if (problems) *problems = failures;
    return all;
}

const Exercise* findExercise(const QString& name)
{
    for (const ExerciseSet& set : exerciseSets())
        for (const Exercise& exercise : set.exercises)
            if (exercise.name == name) return &exercise;
    return nullptr;
}

} // namespace ss::ui
