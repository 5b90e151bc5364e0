// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/modelnodetable.h"

#include "core/op.h"
#include "core/shape.h"

#include <QDir>
#include <QStringList>

#include <algorithm>

namespace ss::ui {

using ss::model::ModelFile;
using ss::model::ModelNode;
using ss::model::NodeCheck;

namespace {

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The stored shapes of several values: "(2, 3)" or "(2, 3); (4,)".
QString storedShapes(const std::vector<ss::model::ModelValue>& values)
{
    QStringList parts;
    for (const auto& v : values)
        parts << str(v.stored.text());
    return parts.join(QStringLiteral("; "));
}

} // namespace

ModelNodeTable::ModelNodeTable(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<NodeCheck> ModelNodeTable::checkAll(const ModelFile& file, const Limits& limits,
                                                JobContext* job)
{
    std::vector<NodeCheck> checks;
    checks.reserve(file.nodes.size());
    if (job) job->beginWork(std::int64_t(file.nodes.size()));
    for (const ModelNode& node : file.nodes) {
        if (job) job->throwIfCancelled();
        checks.push_back(ss::model::checkNode(node, limits));
        if (job) job->addWork(1);
    }
    return checks;
}

void ModelNodeTable::setFile(ModelFile file, std::vector<NodeCheck> checks)
{
    Q_ASSERT(checks.size() == file.nodes.size());
    beginResetModel();
    m_file = std::move(file);
    m_checks = std::move(checks);
    endResetModel();
}

int ModelNodeTable::rowOf(const QString& name) const
{
    for (std::size_t i = 0; i < m_file.nodes.size(); ++i)
        if (str(m_file.nodes[i].name) == name) return int(i);
    return -1;
}

int ModelNodeTable::disagreeing() const
{
    int n = 0;
    for (const NodeCheck& c : m_checks)
        n += c.disagrees ? 1 : 0;
    return n;
}

int ModelNodeTable::setInputValue(const std::string& valueName, const Tensor& value,
                                  const Limits& limits)
{
    // On a copy: setInputValue may refuse the value at a later node after changing earlier ones.
    ModelFile file = m_file;
    const int taken = ss::model::setInputValue(file, valueName, value);
    m_file = std::move(file);
    for (std::size_t i = 0; i < m_file.nodes.size(); ++i) {
        const auto& inputs = m_file.nodes[i].inputs;
        if (std::none_of(inputs.begin(), inputs.end(),
                         [&](const ss::model::ModelValue& in) { return in.name == valueName; }))
            continue;
        m_checks[i] = ss::model::checkNode(m_file.nodes[i], limits);
        emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
    return taken;
}

int ModelNodeTable::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_file.nodes.size());
}

int ModelNodeTable::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ModelNodeTable::cellText(int row, int column) const
{
    const ModelNode& node = m_file.nodes[std::size_t(row)];
    const NodeCheck& check = m_checks[std::size_t(row)];
    switch (column) {
    case Name: return str(node.name);
    case Op: return str(node.op);
    case Arguments: {
        QStringList parts;
        for (const auto& a : node.attributes)
            parts << QStringLiteral("%1 = %2").arg(str(a.name), str(a.text));
        // Inputs the file does not hold are computed when the model runs: say which, where
        // the reader's own text does not already.
        const bool said = parts.join(QString()).contains(QLatin1String("run time"));
        for (const auto& in : node.inputs)
            if (!said && !in.name.empty() && !in.constant && &in != &node.inputs.front())
                parts << QObject::tr("%1: computed at run time").arg(str(in.name));
        return parts.join(QStringLiteral("; "));
    }
    case InputShape:
        return node.inputs.empty() ? QString() : str(node.inputs.front().stored.text());
    case StoredShape: return storedShapes(node.outputs);
    case ComputedShape: {
        if (!node.request) return QObject::tr("not computed: %1").arg(str(node.reason));
        if (!check.error.empty()) return QObject::tr("refused: %1").arg(str(check.error));
        QStringList parts;
        for (const auto& shape : check.computed)
            parts << (shape ? QString::fromStdString(shapeTuple(*shape)) : QStringLiteral("—"));
        return parts.join(QStringLiteral("; "));
    }
    case Check:
        if (check.disagrees) return QObject::tr("✗ disagrees");
        if (!node.request) return QObject::tr("run time / not modelled");
        if (!check.error.empty()) return QObject::tr("not checked");
        return QObject::tr("✓ agrees");
    default: return {};
    }
}

QString ModelNodeTable::checkTooltip(int row) const
{
    const ModelNode& node = m_file.nodes[std::size_t(row)];
    const NodeCheck& check = m_checks[std::size_t(row)];
    if (check.disagrees)
        return check.error.empty()
                   ? QObject::tr("Mismatch: the file stores output shape %1, SliceScope computes "
                                 "%2. This is how a converter bug looks.")
                         .arg(cellText(row, StoredShape), cellText(row, ComputedShape))
                   : QObject::tr("Mismatch: the file says this node runs (output %1), but the "
                                 "engine refuses it: %2")
                         .arg(cellText(row, StoredShape), str(check.error));
    if (!node.request) return QObject::tr("Not computed: %1").arg(str(node.reason));
    if (!check.error.empty()) return QObject::tr("Not checked: %1").arg(str(check.error));
    return node.reason.empty() ? QObject::tr("The stored shape agrees with the computed one.")
                               : str(node.reason);
}

QVariant ModelNodeTable::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int row = index.row();
    switch (role) {
    case Qt::DisplayRole: return cellText(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Check || m_checks[std::size_t(row)].disagrees)
            return checkTooltip(row);
        return cellText(row, index.column());
    case Qt::AccessibleDescriptionRole: return checkTooltip(row);
    case DisagreesRole: return m_checks[std::size_t(row)].disagrees;
    case SearchRole: return cellText(row, Name) + QLatin1Char(' ') + cellText(row, Op);
    case NodeRole: return row;
    default: return {};
    }
}

QVariant ModelNodeTable::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return QObject::tr("Node");
    case Op: return QObject::tr("Op");
    case Arguments: return QObject::tr("Arguments");
    case InputShape: return QObject::tr("Input");
    case StoredShape: return QObject::tr("Output (file)");
    case ComputedShape: return QObject::tr("Output (computed)");
    case Check: return QObject::tr("Check");
    default: return {};
    }
}

std::optional<Workspace> nodeWorkspace(const ModelNode& node, const QString& file, QString* why)
{
    if (!node.request) {
        if (why)
            *why = QObject::tr("%1 cannot be opened: %2").arg(str(node.name), str(node.reason));
        return std::nullopt;
    }
    const ss::model::NodeRequest& request = *node.request;
    if (!findOp(request.op)) {
        if (why) *why = QObject::tr("this build has no op %1").arg(str(request.op));
        return std::nullopt;
    }
    Workspace ws;
    ws.op = request.op;
    ws.attrs = request.attrs;
    ws.inputs.clear();
    bool filled = false; // an input with no value is an arange fill of its shape
    for (const auto& [name, tensors] : request.inputs) {
        std::vector<InputSource> list;
        for (const ss::model::RequestTensor& t : tensors) {
            if (t.value) {
                list.push_back(dataSource(*t.value));
                continue;
            }
            InputSource source;
            source.dtype = t.dtype;
            source.shape = t.shape;
            source.fill = FillKind::Arange;
            filled = true;
            list.push_back(source);
        }
        ws.inputs.push_back(std::move(list));
    }
    ws.title = QObject::tr("%1 (%2)").arg(str(node.name), str(node.op));
    const QString shown = QDir::toNativeSeparators(file);
    if (!node.reason.empty())
        ws.explanation =
            QObject::tr("Node %1 of %2: %3").arg(str(node.name), shown, str(node.reason));
    else if (filled)
        ws.explanation = QObject::tr("Node %1 of %2, with its input's real shape "
                                     "(arange fill) and the file's constant arguments.")
                             .arg(str(node.name), shown);
    else
        ws.explanation = QObject::tr("Node %1 of %2, with the values its inputs "
                                     "were given (the file's constants, a node test's data or "
                                     "yours).")
                             .arg(str(node.name), shown);
    return ws;
}

} // namespace ss::ui
