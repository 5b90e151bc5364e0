// SPDX-License-Identifier: GPL-3.0-or-later
// The model a tensor view draws: the whole tensor as a table, with each element's read order,
// outline and mark, so tests and screen readers can read every cell without going through pixels.
#pragma once

#include "core/tensor.h"
#include "ui/model/readordermap.h"
#include "ui/views/valueformatter.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <vector>

namespace ss::ui {

/// A whole tensor as a table, for tests and screen readers: one row per index of all dimensions
/// but the last (row-major), one column per index of the last dimension (rank 0: one cell; rank
/// 1: one row). Header labels give the coordinates ("[1, 2, :]").
class TensorModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        FlatIndexRole = Qt::UserRole + 1, ///< qint64: row-major flat index of the cell
        ReadOrderRole,                    ///< qint64: read order, -1 if not selected
        SelectedRole,                     ///< bool: read by the op
        OutlinedRole,                     ///< bool: outlined by a linked hover
        CoordinatesRole,                  ///< QList<qint64>: the element's coordinates
        MarkedRole,                       ///< bool: marked as differing (an exercise's check)
    };

    explicit TensorModel(QObject* parent = nullptr);

    void setTensor(const ss::Tensor& tensor);
    const ss::Tensor& tensor() const { return m_tensor; }
    void setReadOrder(ReadOrder order);
    /// Returns whether the outline changed.
    bool setOutlined(std::vector<std::int64_t> flatIndices);
    /// Marks these elements as differing from an exercise's target; returns whether it changed.
    bool setMarked(std::vector<std::int64_t> flatIndices);
    /// Whether cells may be edited (the input view); edits are reported through
    /// elementEdited, never applied to the tensor by the model.
    void setEditable(bool editable);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    QModelIndex indexOfFlat(std::int64_t flat) const;
    std::int64_t flatOf(const QModelIndex& index) const;

    ReadOrder readOrder() const { return m_readOrder; }
    /// Element `flat`'s read order, -1 if it is not read (or no order is set).
    std::int64_t readOrderAt(std::int64_t flat) const
    {
        return m_readOrder ? m_readOrder->at(flat) : -1;
    }
    const std::vector<std::int64_t>& outlined() const { return m_outlined; }
    bool isOutlined(std::int64_t flat) const;
    const std::vector<std::int64_t>& marked() const { return m_marked; }
    bool isMarked(std::int64_t flat) const;
    bool isEditable() const { return m_editable; }
    /// The text style every view of this tensor uses.
    const ValueFormatter& formatter() const { return m_formatter; }

signals:
    void elementEdited(qint64 flatIndex, const QString& text);

private:
    void allChanged(const QList<int>& roles);

    ss::Tensor m_tensor;
    ValueFormatter m_formatter;
    ReadOrder m_readOrder;                // null unless it has one entry per element
    std::vector<std::int64_t> m_outlined; // sorted
    std::vector<std::int64_t> m_marked;   // sorted
    bool m_editable = false;
};

} // namespace ss::ui
