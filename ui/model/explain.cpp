// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/explain.h"

#include "core/frameworks/advanced_index.h"
#include "core/plan.h"
#include "core/strings.h"
#include "ui/model/attrtext.h"

#include <QRegularExpression>

#include <algorithm>

namespace ss::ui {

namespace {

constexpr int kListedTargets = 8;

QString ordinal(std::int64_t n)
{
    const std::int64_t tens = n % 100;
    const char* suffix = "th";
    if (tens < 11 || tens > 13) {
        switch (n % 10) {
        case 1: suffix = "st"; break;
        case 2: suffix = "nd"; break;
        case 3: suffix = "rd"; break;
        default: break;
        }
    }
    return QString::number(n) + QLatin1String(suffix);
}

QString runText(const DimDecode& d)
{
    QStringList items;
    if (d.length <= 5) {
        for (std::int64_t k = 0; k < d.length; ++k)
            items << QString::number(d.begin + k * d.stride);
        return items.join(QStringLiteral(", "));
    }
    return QStringLiteral("%1, %2, …, %3 (%4 elements)")
        .arg(d.begin)
        .arg(d.begin + d.stride)
        .arg(d.begin + (d.length - 1) * d.stride)
        .arg(d.length);
}

QString notesText(const DimDecode& d)
{
    QStringList notes;
    for (const auto& n : d.notes)
        notes << QString::fromStdString(n).toHtmlEscaped();
    return notes.join(QStringLiteral("; "));
}

// One line per input dimension: the index it contributes and the rule that put it there.
QString sliceLines(const StridedSliceDecode& decode, const std::vector<std::int64_t>& in,
                   const std::vector<std::int64_t>& out)
{
    QStringList lines;
    for (const DimDecode& d : decode.dims) {
        const std::int64_t index = in[std::size_t(d.dim)];
        QString line = QStringLiteral("dim %1 = %2").arg(d.dim).arg(index);
        const QString notes = notesText(d);
        if (d.shrink) {
            line += QStringLiteral(": ") + notes;
        } else {
            const auto j = std::find(decode.finalDims.begin(), decode.finalDims.end(), d.dim) -
                           decode.finalDims.begin();
            line += QObject::tr(": runs %1").arg(runText(d));
            if (j < std::ptrdiff_t(out.size()))
                line +=
                    QObject::tr(" (output dim %1, position %2)").arg(j).arg(out[std::size_t(j)]);
            if (!notes.isEmpty()) line += QStringLiteral(" — ") + notes;
        }
        lines << line;
    }
    for (std::size_t j = 0; j < decode.finalDims.size(); ++j)
        if (decode.finalDims[j] < 0)
            lines << QObject::tr("output dim %1: a new axis (None), always 0").arg(j);
    return lines.join(QStringLiteral("<br>"));
}

std::int64_t intAttr(const Evaluation& eval, const char* name, std::int64_t fallback)
{
    const auto it = eval.attrs.find(name);
    return it != eval.attrs.end() && it->second.isInt() ? it->second.toInt() : fallback;
}

QString coordsText(const std::vector<std::int64_t>& coords)
{
    return QString::fromStdString(listText(coords));
}

// Why a gathered element comes from where it does: the entry of indices that chose it ("because
// indices[1] = 1"), read from the indices tensor at the place the output coordinate names.
// Empty for other ops, or where the arguments are not the plain ones this reads.
QString gatherReason(const OpDef& def, const Evaluation& eval, const std::vector<std::int64_t>& out)
{
    const bool gather = def.indexPick == IndexPick::AlongAxis;
    if (def.indexPick == IndexPick::None || eval.inputs.size() != 2 || eval.inputs[0].size() != 1 ||
        eval.inputs[1].size() != 1)
        return {};
    const Tensor& params = eval.inputs[0][0];
    const Tensor& indices = eval.inputs[1][0];
    if (!isInteger(indices.dtype())) return {};
    const std::int64_t ri = indices.rank();
    const QString name = QString::fromStdString(def.inputs[1].name);
    std::vector<std::int64_t> at;
    if (gather) {
        std::int64_t batch = intAttr(eval, "batch_dims", 0);
        if (batch < 0) batch += ri;
        std::int64_t axis = intAttr(eval, "axis", 0);
        if (axis < 0) axis += params.rank();
        if (batch < 0 || batch > axis || axis + ri - batch > std::int64_t(out.size())) return {};
        at.assign(out.begin(), out.begin() + batch);
        at.insert(at.end(), out.begin() + axis, out.begin() + axis + (ri - batch));
        const std::int64_t value = indices.intAt(ravelIndex(at, indices.shape()));
        return QObject::tr("because %1%2 = %3").arg(name, coordsText(at)).arg(value);
    }
    // gather_nd: the output's leading coordinates pick a row of indices, an index tuple.
    if (ri < 1 || ri - 1 > std::int64_t(out.size())) return {};
    at.assign(out.begin(), out.begin() + (ri - 1));
    const std::int64_t depth = indices.shape().back();
    std::vector<std::int64_t> tuple;
    for (std::int64_t k = 0; k < depth; ++k) {
        std::vector<std::int64_t> c = at;
        c.push_back(k);
        tuple.push_back(indices.intAt(ravelIndex(c, indices.shape())));
    }
    return QObject::tr("because %1%2 = %3").arg(name, coordsText(at), coordsText(tuple));
}

// The compare op's "frameworks" member: per framework, a map of its outcome.
const Attr::List* frameworkEntries(const Evaluation& eval)
{
    for (const auto& [name, value] : eval.extras)
        if (name == "frameworks" && value.isList()) return &value.toList();
    return nullptr;
}

const Attr* member(const Attr& map, const char* name)
{
    if (!map.isMap()) return nullptr;
    for (const auto& [key, value] : map.toMap())
        if (key == name) return &value;
    return nullptr;
}

QString memberText(const Attr& map, const char* name)
{
    const Attr* value = member(map, name);
    return value && value->isString() ? QString::fromStdString(value->toString()) : QString();
}

// Per output of a comparison, the titles of the frameworks whose result it is ("NumPy 1.24,
// TensorFlow 2.15"); empty when the evaluation is not one.
QStringList resultOwners(const Evaluation& eval)
{
    const Attr::List* entries = frameworkEntries(eval);
    if (!entries) return {};
    std::vector<QStringList> owners(eval.outputs.size());
    for (const Attr& entry : *entries) {
        const Attr* output = member(entry, "output");
        if (!output || !output->isInt() || output->toInt() < 0 ||
            output->toInt() >= std::int64_t(owners.size()))
            continue;
        owners[std::size_t(output->toInt())] << memberText(entry, "title");
    }
    QStringList names;
    for (const QStringList& o : owners) {
        if (o.isEmpty()) return {};
        names << o.join(QStringLiteral(", "));
    }
    return names;
}

} // namespace

QString extrasText(const Evaluation& eval)
{
    QStringList lines;
    if (const Attr::List* entries = frameworkEntries(eval)) {
        // compare: one line per framework, its outcome in words and why it differs.
        for (const Attr& entry : *entries) {
            const QString title = memberText(entry, "title").toHtmlEscaped();
            const QString outcome = memberText(entry, "outcome");
            QString line;
            if (outcome == QLatin1String("result")) {
                const Attr* shape = member(entry, "shape");
                QString shapeWords = shape ? attrText(*shape) : QString();
                if (shape && shape->isList()) {
                    Shape s;
                    for (const Attr& d : shape->toList())
                        if (d.isInt()) s.push_back(d.toInt());
                    shapeWords = shapeText(s);
                }
                line = QObject::tr("<b>%1</b>: shape %2 %3")
                           .arg(title, shapeWords, memberText(entry, "dtype"));
            } else if (outcome == QLatin1String("error")) {
                const Attr* error = member(entry, "error");
                line =
                    QObject::tr("<b>%1</b> raises %2: %3")
                        .arg(title, error ? memberText(*error, "type").toHtmlEscaped() : QString(),
                             error ? memberText(*error, "message").toHtmlEscaped() : QString());
            } else {
                line = QObject::tr("<b>%1</b>: not modelled (%2)")
                           .arg(title, memberText(entry, "message").toHtmlEscaped());
            }
            const Attr* differs = member(entry, "differs");
            if (differs && differs->isBool() && differs->toBool())
                line += QObject::tr(" — <i>differs: %1</i>")
                            .arg(memberText(entry, "reason").toHtmlEscaped());
            lines << line;
        }
        return lines.join(QStringLiteral("<br>"));
    }
    for (const auto& [name, value] : eval.extras) {
        // A framework's index arrays are what hovering an output element explains.
        if (name == frameworks::kIndexArraysExtra) continue;
        lines << QStringLiteral("<b>%1</b>: <code>%2</code>")
                     .arg(QString::fromStdString(name), attrText(value).toHtmlEscaped());
    }
    return lines.join(QStringLiteral("<br>"));
}

QString staleNote(const OpDef& def, const Evaluation& good, const Evaluation& failed)
{
    const QString request = requestText(def, good.attrs);
    // Another request: naming the good one says what differs.
    if (good.op != failed.op || good.attrs != failed.attrs)
        return QObject::tr("last good result of %1").arg(request);
    // The same request on other inputs: say which input, and how it was then.
    const std::vector<Tensor> then = good.slotTensors();
    const std::vector<Tensor> now = failed.slotTensors();
    const QStringList names = slotNames(def, good);
    QStringList changes;
    for (std::size_t k = 0; k < then.size() && int(k) < names.size(); ++k) {
        const Tensor& was = then[k];
        const QString shape = shapeText(was.shape()) + u' ' + dtypeText(was.dtype());
        if (k >= now.size() || !now[k].isValid()) {
            changes << QObject::tr("%1 was %2").arg(names[int(k)], shape);
            continue;
        }
        // Not what it is now: the input's own view shows that, and while a shape is typed "now"
        // named each intermediate one ("5" of "5, 6" read (5,)) until the edit evaluated.
        if (now[k].shape() != was.shape() || now[k].dtype() != was.dtype())
            changes << QObject::tr("%1 was %2").arg(names[int(k)], shape);
        else if (now[k].raw() != was.raw())
            changes << QObject::tr("%1 had other values").arg(names[int(k)]);
    }
    if (now.size() > then.size())
        changes
            << QObject::tr("there were %1 input tensors, now %2").arg(then.size()).arg(now.size());
    if (changes.isEmpty()) return QObject::tr("last good result of %1").arg(request);
    return QObject::tr("last good result of %1, when %2")
        .arg(request, changes.join(QStringLiteral("; ")));
}

QStringList slotNames(const OpDef& def, const Evaluation& eval)
{
    QStringList names;
    for (std::size_t k = 0; k < def.inputs.size(); ++k) {
        const QString name = QString::fromStdString(def.inputs[k].name);
        const std::size_t count = k < eval.inputs.size() ? eval.inputs[k].size() : 0;
        if (!def.inputs[k].isList) {
            names << name;
            continue;
        }
        for (std::size_t j = 0; j < count; ++j)
            names << QStringLiteral("%1[%2]").arg(name).arg(j);
    }
    return names;
}

QString requestText(const OpDef& def, const Attrs& attrs)
{
    QString text;
    const auto expr = attrs.find("expr");
    if (def.notation == Notation::Subscript && expr != attrs.end() && expr->second.isString()) {
        text = QString::fromStdString(expr->second.toString());
    } else {
        QStringList args;
        for (const auto& [name, value] : attrs)
            args << QString::fromStdString(name) + u'=' + attrText(value);
        text = QString::fromStdString(def.name) + u'(' + args.join(QStringLiteral(", ")) + u')';
    }
    constexpr int kLongest = 80;
    return text.size() > kLongest ? text.left(kLongest - 1) + QChar(0x2026) : text;
}

QStringList outputNames(const OpDef& def, const Evaluation& eval)
{
    // Ops with fixed outputs name them ("y, idx, count"); the others are numbered.
    static const QRegularExpression identifier(QStringLiteral("^[a-z_]+$"));
    const QStringList declared = QString::fromStdString(def.outputs).split(QStringLiteral(", "));
    const bool named = eval.outputs.size() > 1 && declared.size() == int(eval.outputs.size()) &&
                       std::all_of(declared.begin(), declared.end(),
                                   [](const QString& n) { return identifier.match(n).hasMatch(); });
    if (named) return declared;
    // compare: each result is titled by the frameworks that give it.
    const QStringList owners = resultOwners(eval);
    if (!owners.isEmpty()) return owners;
    // A framework's reading (the Frameworks panel's choice) says whose it is.
    if (eval.outputs.size() == 1)
        return {eval.framework.isEmpty() ? QObject::tr("output")
                                         : QObject::tr("%1 output").arg(eval.framework)};
    QStringList names;
    for (std::size_t k = 0; k < eval.outputs.size(); ++k)
        names << QObject::tr("output %1").arg(k);
    return names;
}

QString explainOutputElement(const OpDef& def, const Evaluation& eval, int output,
                             std::int64_t flat)
{
    if (output < 0 || output >= int(eval.outputs.size()) || flat < 0 ||
        flat >= eval.outputs[std::size_t(output)].size())
        return {};
    const Shape& outShape = eval.outputs[std::size_t(output)].shape();
    const QString outName = outputNames(def, eval)[output] + coordText(flat, outShape);
    const std::int64_t source = eval.sources.source(output, flat);
    if (source < 0 || sourceSlot(source) == kConstantSlot)
        return QObject::tr("<b>%1</b> is a constant: no input element is copied there.")
            .arg(outName);
    const int slot = sourceSlot(source);
    const std::int64_t index = sourceIndex(source);
    const std::vector<Tensor> tensors = eval.slotTensors();
    const Shape& inShape = tensors[std::size_t(slot)].shape();
    QString text = QObject::tr("<b>%1</b> comes from <b>%2</b>")
                       .arg(outName, slotNames(def, eval)[slot] + coordText(index, inShape));
    if (slot == 0) {
        const QString why = gatherReason(def, eval, unravelIndex(flat, outShape));
        if (!why.isEmpty()) text += u' ' + why;
    }
    // A framework's advanced index: which index array entries chose this element (the engine's
    // words, from the arrays it planned with).
    if (output == 0)
        for (const auto& [name, value] : eval.extras)
            if (name == frameworks::kIndexArraysExtra) {
                const std::string why = frameworks::explainIndexArrays(value, outShape, flat);
                if (!why.empty())
                    text += QStringLiteral("<br>") + QString::fromStdString(why).toHtmlEscaped();
            }
    // The decode's per-dimension lines explain this element when the decode maps the source's
    // tensor onto this output (getitem, strided_slice); the gradient and the assignment run it
    // the other way round, where its lines would name the wrong coordinates.
    const StridedSliceDecode* d = eval.decode ? &*eval.decode : nullptr;
    Shape decodedInput;
    if (d)
        for (const auto& dim : d->dims)
            decodedInput.push_back(dim.size);
    if (d && output == 0 && inShape == decodedInput && outShape == d->finalShape)
        text += QStringLiteral("<br>") + sliceLines(*eval.decode, unravelIndex(index, inShape),
                                                    unravelIndex(flat, outShape));
    return text;
}

QString explainInputElement(const OpDef& def, const Evaluation& eval, int slot, std::int64_t index,
                            const std::vector<std::vector<std::int64_t>>& targets)
{
    const std::vector<Tensor> tensors = eval.slotTensors();
    if (slot < 0 || slot >= int(tensors.size()) || index < 0 ||
        index >= tensors[std::size_t(slot)].size())
        return {};
    const QString inName =
        slotNames(def, eval)[slot] + coordText(index, tensors[std::size_t(slot)].shape());
    const std::int64_t order = std::size_t(slot) < eval.readOrders.size()
                                   ? eval.readOrders[std::size_t(slot)]->at(index)
                                   : -1;
    if (order < 0)
        return QObject::tr("<b>%1</b> is not read by %2.")
            .arg(inName, QString::fromStdString(def.name));
    QStringList places;
    std::int64_t total = 0;
    const QStringList names = outputNames(def, eval);
    for (std::size_t k = 0; k < targets.size(); ++k) {
        for (std::int64_t t : targets[k]) {
            if (places.size() < kListedTargets)
                places << names[int(k)] + coordText(t, eval.outputs[k].shape());
            ++total;
        }
    }
    // An element read more than once (a repeated gather index, tile) lists every read.
    QString text = total > 1 ? QObject::tr("<b>%1</b> is read %2 times, first %3: %4")
                                   .arg(inName)
                                   .arg(total)
                                   .arg(ordinal(order + 1), places.join(QStringLiteral(", ")))
                             : QObject::tr("<b>%1</b> is read %2").arg(inName, ordinal(order + 1));
    if (total == 1) text += QObject::tr(", copied to %1").arg(places.join(QStringLiteral(", ")));
    if (total > places.size()) text += QObject::tr(" and %1 more").arg(total - places.size());
    return text + u'.';
}

} // namespace ss::ui
