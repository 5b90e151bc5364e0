// SPDX-License-Identifier: GPL-3.0-or-later
// TensorModel: the whole tensor as a table, so tests and screen readers can read every cell and
// its highlight state without going through pixels.
#include "ui/views/tensormodel.h"

#include <QStringList>

#include <algorithm>
#include <climits>

namespace ss::ui {

namespace {

int clampToInt(std::int64_t n)
{
    return int(std::min<std::int64_t>(n, INT_MAX));
}

QString coordinateList(const std::vector<std::int64_t>& coords)
{
    QStringList parts;
    for (std::int64_t c : coords)
        parts << QString::number(c);
    return parts.join(QStringLiteral(", "));
}

} // namespace

TensorModel::TensorModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorModel::setTensor(const ss::Tensor& tensor)
{
    // The same rows and columns keep every index valid: views keep their place and selection.
    const bool sameTable =
        m_tensor.isValid() && tensor.isValid() && m_tensor.shape() == tensor.shape();
    if (!sameTable) beginResetModel();
    m_tensor = tensor;
    m_formatter = ValueFormatter(tensor);
    // An order or outline for another element count cannot belong to this tensor; one for the
    // same count is kept until the caller replaces it, so an edit does not flash the selection.
    if (m_readOrder && m_readOrder->size() != tensor.size()) m_readOrder.reset();
    std::erase_if(m_outlined, [&](std::int64_t i) { return i >= tensor.size(); });
    std::erase_if(m_marked, [&](std::int64_t i) { return i >= tensor.size(); });
    if (sameTable)
        allChanged({});
    else
        endResetModel();
}

void TensorModel::allChanged(const QList<int>& roles)
{
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), roles);
}

void TensorModel::setReadOrder(ReadOrder order)
{
    if (order && order->size() != m_tensor.size()) order.reset();
    if (order == m_readOrder) return;
    m_readOrder = std::move(order);
    allChanged({ReadOrderRole, SelectedRole, Qt::AccessibleDescriptionRole});
}

bool TensorModel::setOutlined(std::vector<std::int64_t> flatIndices)
{
    std::sort(flatIndices.begin(), flatIndices.end());
    flatIndices.erase(std::unique(flatIndices.begin(), flatIndices.end()), flatIndices.end());
    std::erase_if(flatIndices, [&](std::int64_t i) { return i < 0 || i >= m_tensor.size(); });
    if (flatIndices == m_outlined) return false;
    // One signal for the box around every cell that changed keeps a hover cheap.
    std::vector<std::int64_t> changed;
    std::set_symmetric_difference(m_outlined.begin(), m_outlined.end(), flatIndices.begin(),
                                  flatIndices.end(), std::back_inserter(changed));
    m_outlined = std::move(flatIndices);
    int top = INT_MAX, left = INT_MAX, bottom = -1, right = -1;
    for (std::int64_t flat : changed) {
        const QModelIndex i = indexOfFlat(flat);
        if (!i.isValid()) continue;
        top = std::min(top, i.row());
        bottom = std::max(bottom, i.row());
        left = std::min(left, i.column());
        right = std::max(right, i.column());
    }
    if (bottom >= 0)
        emit dataChanged(index(top, left), index(bottom, right),
                         {OutlinedRole, Qt::AccessibleDescriptionRole});
    return true;
}

bool TensorModel::setMarked(std::vector<std::int64_t> flatIndices)
{
    std::sort(flatIndices.begin(), flatIndices.end());
    flatIndices.erase(std::unique(flatIndices.begin(), flatIndices.end()), flatIndices.end());
    std::erase_if(flatIndices, [&](std::int64_t i) { return i < 0 || i >= m_tensor.size(); });
    if (flatIndices == m_marked) return false;
    m_marked = std::move(flatIndices);
    allChanged({MarkedRole, Qt::AccessibleDescriptionRole});
    return true;
}

bool TensorModel::isMarked(std::int64_t flat) const
{
    return std::binary_search(m_marked.begin(), m_marked.end(), flat);
}

void TensorModel::setEditable(bool editable)
{
    if (editable == m_editable) return;
    m_editable = editable;
    allChanged({}); // the flags changed
}

bool TensorModel::isOutlined(std::int64_t flat) const
{
    return std::binary_search(m_outlined.begin(), m_outlined.end(), flat);
}

int TensorModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_tensor.isValid()) return 0;
    if (m_tensor.rank() == 0) return 1;
    const Shape& shape = m_tensor.shape();
    return clampToInt(numElements(Shape(shape.begin(), shape.end() - 1)));
}

int TensorModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_tensor.isValid()) return 0;
    return m_tensor.rank() == 0 ? 1 : clampToInt(m_tensor.shape().back());
}

QModelIndex TensorModel::indexOfFlat(std::int64_t flat) const
{
    if (flat < 0 || flat >= m_tensor.size()) return {};
    const std::int64_t cols = m_tensor.rank() == 0 ? 1 : m_tensor.shape().back();
    if (flat / cols >= rowCount()) return {};
    return index(int(flat / cols), int(flat % cols));
}

std::int64_t TensorModel::flatOf(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this) return -1;
    return std::int64_t(index.row()) * columnCount() + index.column();
}

QVariant TensorModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::int64_t flat = flatOf(index);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole: return m_formatter.text(flat);
    case Qt::EditRole: return m_formatter.editText(flat);
    case Qt::TextAlignmentRole:
        return m_tensor.dtype() == DType::String ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::AccessibleDescriptionRole: {
        const std::int64_t order = readOrderAt(flat);
        QString text = QLatin1Char('[') + coordinateList(unravelIndex(flat, m_tensor.shape())) +
                       QLatin1Char(']');
        text += order >= 0 ? QStringLiteral(", read at position %1").arg(order)
                           : QStringLiteral(", not read");
        if (isOutlined(flat)) text += QStringLiteral(", outlined");
        if (isMarked(flat)) text += QStringLiteral(", differs from the target");
        return text;
    }
    case FlatIndexRole: return qint64(flat);
    case ReadOrderRole: return qint64(readOrderAt(flat));
    case SelectedRole: return readOrderAt(flat) >= 0;
    case OutlinedRole: return isOutlined(flat);
    case MarkedRole: return isMarked(flat);
    case CoordinatesRole: {
        QList<qint64> coords;
        for (std::int64_t c : unravelIndex(flat, m_tensor.shape()))
            coords << c;
        return QVariant::fromValue(coords);
    }
    default: return {};
    }
}

QVariant TensorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || section < 0 || !m_tensor.isValid()) return {};
    const int rank = m_tensor.rank();
    if (orientation == Qt::Horizontal) {
        if (section >= columnCount()) return {};
        if (rank == 0) return QStringLiteral("[]");
        return rank == 1 ? QStringLiteral("[%1]").arg(section)
                         : QStringLiteral("[..., %1]").arg(section);
    }
    if (section >= rowCount()) return {};
    if (rank <= 1) return rank == 0 ? QStringLiteral("[]") : QStringLiteral("[:]");
    const Shape& shape = m_tensor.shape();
    const auto coords = unravelIndex(section, Shape(shape.begin(), shape.end() - 1));
    return QLatin1Char('[') + coordinateList(coords) + QStringLiteral(", :]");
}

Qt::ItemFlags TensorModel::flags(const QModelIndex& index) const
{
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (m_editable) f |= Qt::ItemIsEditable;
    return f;
}

bool TensorModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!m_editable || role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    // The workbench parses and applies the text (it owns the tensor); the model only reports.
    emit elementEdited(qint64(flatOf(index)), value.toString());
    return true;
}

} // namespace ss::ui
