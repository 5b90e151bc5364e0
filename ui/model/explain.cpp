// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/explain.h"

#include "core/plan.h"
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

} // namespace

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
    QString text = QObject::tr("<b>%1</b> is read %2").arg(inName, ordinal(order + 1));
    if (!places.isEmpty())
        text += QObject::tr(", copied to %1").arg(places.join(QStringLiteral(", ")));
    if (total > places.size()) text += QObject::tr(" and %1 more").arg(total - places.size());
    return text + u'.';
}

} // namespace ss::ui
