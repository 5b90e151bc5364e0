// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/exercisechecker.h"

#include "core/error.h"
#include "core/plan.h"
#include "protocol/request.h"
#include "ui/model/workerpool.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <set>

namespace ss::ui {

namespace {

QString shapeWords(const Shape& shape)
{
    return shapeText(shape);
}

// The input coordinates of a packed source of slot 0, or empty for anything else.
std::vector<std::int64_t> coordinates(std::int64_t packed, const Shape& inputShape)
{
    if (packed < 0 || sourceSlot(packed) != 0) return {};
    std::int64_t flat = sourceIndex(packed);
    std::vector<std::int64_t> coords(inputShape.size());
    for (std::size_t d = inputShape.size(); d-- > 0;) {
        const std::int64_t size = std::max<std::int64_t>(inputShape[d], 1);
        coords[d] = flat % size;
        flat /= size;
    }
    return coords;
}

std::vector<std::int64_t> readInputs(const Selection& s)
{
    std::set<std::int64_t> read;
    for (std::int64_t packed : s.sources)
        if (packed >= 0 && sourceSlot(packed) == 0) read.insert(sourceIndex(packed));
    return {read.begin(), read.end()};
}

// Along output axis `axis`, which way the selection runs through the input: the change of the
// input element's flat index from coordinate 0 to 1 of that axis (others 0); 0 if it cannot say.
std::int64_t direction(const Selection& s, std::size_t axis)
{
    if (axis >= s.shape.size() || s.shape[axis] < 2 || s.sources.empty()) return 0;
    const std::vector<std::int64_t> strides = rowMajorStrides(s.shape);
    const std::int64_t first = s.sources[0];
    const std::int64_t second = s.sources[std::size_t(strides[axis])];
    if (first < 0 || second < 0 || sourceSlot(first) != sourceSlot(second)) return 0;
    return sourceIndex(second) - sourceIndex(first);
}

QString cells(std::int64_t n)
{
    return n == 1 ? QObject::tr("1 cell") : QObject::tr("%1 cells").arg(n);
}

QString listText(const std::set<std::int64_t>& values)
{
    QStringList parts;
    for (std::int64_t v : values)
        parts << QString::number(v);
    return parts.join(QStringLiteral(", "));
}

// One hint, from the first way in which the answer differs, most basic first.
QString hintFor(const Selection& target, const Selection& answer)
{
    const auto t = std::int64_t(target.sources.size());
    const auto a = std::int64_t(answer.sources.size());
    if (answer.shape.size() != target.shape.size()) {
        const QString ranks = QObject::tr("Your result has rank %1 (shape %2), the target rank %3 "
                                          "(shape %4): ")
                                  .arg(answer.shape.size())
                                  .arg(shapeWords(answer.shape))
                                  .arg(target.shape.size())
                                  .arg(shapeWords(target.shape));
        if (!answer.spec)
            return ranks + QObject::tr("check which axes the op keeps, adds or removes.");
        if (answer.shape.size() > target.shape.size())
            return ranks + QObject::tr("an index removes an axis, a slice keeps it.");
        return ranks + QObject::tr("a slice keeps an axis (1:2 keeps one row), an index removes "
                                   "it, and a new axis adds one of length 1.");
    }
    if (a != t)
        return QObject::tr("You selected %1 (shape %2), the target %3 (shape %4).")
            .arg(cells(a), shapeWords(answer.shape), cells(t), shapeWords(target.shape));
    if (answer.shape != target.shape)
        return QObject::tr("The right number of cells, but shape %1 where the target has %2: "
                           "the axes are in another order or split differently.")
            .arg(shapeWords(answer.shape), shapeWords(target.shape));

    SourceList mine = answer.sources, theirs = target.sources;
    std::sort(mine.begin(), mine.end());
    std::sort(theirs.begin(), theirs.end());
    if (mine == theirs) {
        // The right cells in another order: find an axis that runs the other way.
        for (std::size_t axis = 0; axis < target.shape.size(); ++axis) {
            const std::int64_t want = direction(target, axis);
            const std::int64_t got = direction(answer, axis);
            if (want < 0 && got > 0)
                return answer.spec
                           ? QObject::tr("The right cells in the wrong order: along output axis "
                                         "%1 your stride is positive, the target runs backwards.")
                                 .arg(axis)
                           : QObject::tr("The right cells in the wrong order: along output axis "
                                         "%1 yours run forwards, the target's backwards.")
                                 .arg(axis);
            if (want > 0 && got < 0)
                return answer.spec
                           ? QObject::tr("The right cells in the wrong order: along output axis "
                                         "%1 your stride is negative, the target runs forwards.")
                                 .arg(axis)
                           : QObject::tr("The right cells in the wrong order: along output axis "
                                         "%1 yours run backwards, the target's forwards.")
                                 .arg(axis);
        }
        return QObject::tr("The right cells in the wrong order: follow the target's read order "
                           "(its colours, dark to light).");
    }
    // Other cells: name the first input axis whose coordinates differ.
    const std::size_t rank = target.inputShape.size();
    for (std::size_t d = 0; d < rank; ++d) {
        std::set<std::int64_t> want, got;
        for (std::int64_t packed : target.sources)
            if (auto c = coordinates(packed, target.inputShape); !c.empty()) want.insert(c[d]);
        for (std::int64_t packed : answer.sources)
            if (auto c = coordinates(packed, answer.inputShape); !c.empty()) got.insert(c[d]);
        if (want == got) continue;
        QString hint = QObject::tr("Along input axis %1 the target reads %2, yours %3.")
                           .arg(d)
                           .arg(listText(want), listText(got));
        if (want.size() == got.size() && !want.empty()) {
            const std::int64_t shift = *got.begin() - *want.begin();
            bool shifted = true;
            for (auto w = want.begin(), g = got.begin(); w != want.end(); ++w, ++g)
                shifted = shifted && *g - *w == shift;
            if (shifted)
                hint +=
                    QLatin1Char(' ') +
                    QObject::tr("Every one is off by %1: check where that axis starts.").arg(shift);
        } else if (answer.spec && want.size() > 1 && got.size() > 1) {
            hint += QLatin1Char(' ') + QObject::tr("Check the step (stride) on that axis.");
        }
        return hint;
    }
    return QObject::tr("Some cells come from elsewhere: compare the marked cells with the "
                       "target.");
}

} // namespace

Selection ExerciseChecker::select(const Workspace& workspace)
{
    Selection s;
    try {
        const OpDef* def = findOp(workspace.op);
        if (!def) badRequest("unknown op '" + workspace.op + "'");
        if (workspace.inputs.size() != def->inputs.size())
            badRequest("op '" + def->name + "' takes " + std::to_string(def->inputs.size()) +
                       " inputs");
        const Limits limits = Limits::machineDefault();
        Request request;
        request.op = def;
        request.attrs = workspace.attrs;
        request.framework = workspace.framework;
        request.sources = true;
        request.inMemory = true;
        for (const auto& list : workspace.inputs) {
            std::vector<Tensor> tensors;
            for (const InputSource& source : list)
                tensors.push_back(materialize(source, limits));
            request.inputs.push_back(std::move(tensors));
        }
        const std::shared_ptr<Executor> pool = WorkerPool::shared();
        RequestResult run = runRequest(request, limits, *pool);
        if (run.outputs.empty() || run.sources.empty()) badRequest("the op gives no output");
        if (!run.inputs.empty()) {
            s.input = run.inputs.front();
            s.inputShape = s.input.shape();
        }
        s.shape = run.outputs.front().shape();
        s.sources = std::move(run.sources.front());
        s.spec = run.plan.decode.has_value();
        s.ok = true;
    } catch (const std::exception& e) {
        s.error = QString::fromUtf8(e.what());
    }
    return s;
}

std::vector<std::int64_t> ExerciseChecker::readPositions(const Selection& s)
{
    std::vector<std::int64_t> order(std::size_t(s.input.isValid() ? s.input.size() : 0), -1);
    for (std::size_t i = 0; i < s.sources.size(); ++i) {
        const std::int64_t packed = s.sources[i];
        if (packed < 0 || sourceSlot(packed) != 0) continue;
        auto& slot = order[std::size_t(sourceIndex(packed))];
        if (slot < 0) slot = std::int64_t(i);
    }
    return order;
}

Selection ExerciseChecker::target(const Exercise& exercise)
{
    return select(exercise.solutions.front());
}

CheckResult ExerciseChecker::check(const Exercise& exercise, const Workspace& answer)
{
    return check(target(exercise), exercise.start.op, answer);
}

CheckResult ExerciseChecker::check(const Selection& target, const std::string& op,
                                   const Workspace& answer)
{
    CheckResult result;
    result.target = target;
    if (!target.ok) {
        result.hint = QObject::tr("This exercise's own solution fails: %1").arg(target.error);
        return result;
    }
    if (answer.op != op) {
        result.hint = QObject::tr("This exercise is about %1: switch the op back to it.")
                          .arg(QString::fromStdString(op));
        return result;
    }
    result.answer = select(answer);
    const Selection& mine = result.answer;
    if (!mine.ok) {
        result.hint = QObject::tr("The engine refuses this answer: %1").arg(mine.error);
        return result;
    }
    if (mine.inputShape != target.inputShape) {
        result.hint = QObject::tr("Keep the input as it is (shape %1): the task is to select from "
                                  "it.")
                          .arg(shapeText(target.inputShape));
        return result;
    }
    result.correct = mine.shape == target.shape && mine.sources == target.sources;
    if (result.correct) return result;

    for (std::size_t i = 0; i < mine.sources.size(); ++i)
        if (i >= target.sources.size() || mine.sources[i] != target.sources[i])
            result.differingOutputs.push_back(std::int64_t(i));
    const std::vector<std::int64_t> want = readInputs(target), got = readInputs(mine);
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                        std::back_inserter(result.missingInputs));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                        std::back_inserter(result.extraInputs));
    result.hint = hintFor(target, mine);
    return result;
}

} // namespace ss::ui
