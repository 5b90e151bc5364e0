// SPDX-License-Identifier: GPL-3.0-or-later
// A table of integer arguments, one row per entry: strided_slice's begin/end/stride with its
// five mask bits as check boxes, slice's begin/size per dimension, Paddle's axes/starts/ends/
// strides. The model holds plain integers; the op editors translate them to attributes.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QPushButton;
class QTableView;

namespace ss::ui {

class ArgTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    struct Column
    {
        QString name;
        QString toolTip;
        bool isBit = false;        ///< a check box; the header shows the mask it builds
        std::int64_t newValue = 0; ///< what a new entry starts with
    };
    using Row = std::vector<std::int64_t>;

    explicit ArgTableModel(std::vector<Column> columns, QObject* parent = nullptr);

    /// Replaces every row (not a user edit: `edited` is not emitted).
    void setRows(std::vector<Row> rows);
    const std::vector<Row>& rows() const { return m_rows; }
    /// Labels of the rows ("0: 2:4", "dim 1 (size 5)"); missing ones show the row number.
    void setRowLabels(const QStringList& labels);
    /// Rows to light (the current decode step's entries).
    void setLitRows(std::vector<int> rows);
    const std::vector<int>& litRows() const { return m_lit; }
    /// Bits of a bit column's mask that lie past the last row (kept, shown in the total).
    void setExtraBits(int column, std::int64_t bits);
    /// The integer a bit column spells: bit i set when row i is checked, plus the extra bits.
    std::int64_t mask(int column) const;

    void insertEntry(int row);
    void removeEntry(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
    /// The user changed a value, a bit, or the number of entries.
    void edited();

private:
    bool isCell(const QModelIndex& index) const;

    std::vector<Column> m_columns;
    std::vector<Row> m_rows;
    QStringList m_rowLabels;
    std::vector<int> m_lit;
    std::vector<std::int64_t> m_extraBits;
};

/// The table with buttons to add and remove entries and a line for notes or problems.
class ArgTable : public QWidget
{
    Q_OBJECT
public:
    /// `name` prefixes the objectNames of the table ("<name>Table") and its buttons.
    ArgTable(const QString& name, const QString& accessibleName,
             std::vector<ArgTableModel::Column> columns, QWidget* parent = nullptr);

    ArgTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    /// A short line under the table (e.g. the subscript the raw arguments spell, or why none
    /// does); `problem` shows it as a warning.
    void setNote(const QString& text, bool problem = false);
    QString note() const;
    /// For a spec these arguments cannot say (an index array, a mask): the table is emptied and
    /// disabled, with `reason` shown inside it and as its accessible description, so no row of
    /// an earlier spec passes for this one. An empty reason gives the table back (the caller
    /// fills it).
    void setUnavailable(const QString& reason);
    /// Why the table is empty and disabled; empty while it is in use.
    QString unavailableReason() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Grows or shrinks the table with its entries.
    void fitRows();
    /// Keeps the reason over the table's cells.
    void placeReason();

    ArgTableModel* m_model;
    QTableView* m_view;
    QPushButton* m_add;
    QPushButton* m_remove;
    QLabel* m_note;
    QLabel* m_reason; ///< over the cells while the table is unavailable
};

} // namespace ss::ui
