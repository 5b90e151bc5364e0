// SPDX-License-Identifier: GPL-3.0-or-later
// A tensor view's drawing (the cell canvas or the heat map) as an accessible table, so that
// screen readers and GUI tests from outside (AT-SPI) can read every value, which cells are lit and
// in what order. The table is TensorModel's: one row per index of all dimensions but the last
// (row-major), one column per index of the last. Each cell is named like
// "input[1, 2, 0, 3, 1] = 4391" and described by its selection ("read #7 of 40", counted over the
// whole op as the colours are) and, in an output, where it came from. A heat map's table also
// describes the block it is zoomed to and the element under the mouse.
//
// Qt 6.4's AT-SPI bridge dereferences cellAt() unchecked for row and column numbers a client
// sends (GetRowHeader, GetRowColumnExtentsAtIndex, GetColumnExtentAt, GetRowExtentAt), so a
// screen reader asking about row -1 (Orca does, for a table with no current cell) or about any
// cell of an empty tensor crashed the application. cellAt() therefore never answers null: outside
// the table it gives the table's one "no cell" placeholder (no name, row and column -1). The
// cell canvas's keyboard cell is the table's current cell (focusChild(), the focused state), and
// moving it sends a Focus event for the cell, which the bridge passes on as the cell's focus.
#pragma once

#include <QAccessibleWidget>

#include <cstdint>
#include <map>

namespace ss::ui {

class TensorView;

class TensorAccessible : public QAccessibleWidget, public QAccessibleTableInterface
{
public:
    /// `drawing` is the view's TensorCanvas or HeatMap.
    TensorAccessible(QWidget* drawing, TensorView* view);
    ~TensorAccessible() override;

    /// Makes QAccessible build these for every tensor view's drawings (once per process).
    static void install();
    /// Tells assistive technology that the keyboard's cell of `drawing` (a TensorCanvas) is now
    /// element `flat`: a Focus event for that cell, while the drawing has the focus.
    static void currentCellChanged(QWidget* drawing, std::int64_t flat);

    // QAccessibleInterface
    QAccessible::Role role() const override { return QAccessible::Table; }
    QString text(QAccessible::Text t) const override;
    int childCount() const override;
    QAccessibleInterface* child(int index) const override;
    int indexOfChild(const QAccessibleInterface* child) const override;
    QAccessibleInterface* childAt(int x, int y) const override;
    void* interface_cast(QAccessible::InterfaceType type) override;
    /// The keyboard's cell of a cell canvas; null when there is none (a heat map has none).
    QAccessibleInterface* focusChild() const override;

    // QAccessibleTableInterface
    QAccessibleInterface* caption() const override { return nullptr; }
    QAccessibleInterface* summary() const override { return nullptr; }
    QAccessibleInterface* cellAt(int row, int column) const override;
    int selectedCellCount() const override;
    QList<QAccessibleInterface*> selectedCells() const override;
    QString columnDescription(int column) const override;
    QString rowDescription(int row) const override;
    int selectedColumnCount() const override { return 0; }
    int selectedRowCount() const override { return 0; }
    int columnCount() const override;
    int rowCount() const override;
    QList<int> selectedColumns() const override { return {}; }
    QList<int> selectedRows() const override { return {}; }
    bool isColumnSelected(int) const override { return false; }
    bool isRowSelected(int) const override { return false; }
    // The selection is the op's (what it reads), not the user's: it cannot be changed here.
    bool selectRow(int) override { return false; }
    bool selectColumn(int) override { return false; }
    bool unselectRow(int) override { return false; }
    bool unselectColumn(int) override { return false; }
    void modelChange(QAccessibleTableModelChangeEvent* event) override;

    TensorView* view() const { return m_view; }
    /// The element that is the keyboard's cell, or -1.
    std::int64_t currentElement() const;
    /// "input[1, 2]": the element's name, as the view's title calls the tensor.
    QString elementName(std::int64_t flat) const;
    /// "read #7 of 40" or "not read", then (outputs) where the element came from.
    QString elementDescription(std::int64_t flat) const;

private:
    class Cell;

    /// The children that are cells (the widget's own children follow them).
    int cellCount() const;
    /// Forgets the cells handed out for another tensor (their rows and columns meant other
    /// elements).
    void syncCells() const;

    TensorView* m_view;
    mutable std::map<std::int64_t, QAccessible::Id> m_cells; ///< by flat index
    mutable QAccessible::Id m_noCell = 0; ///< the placeholder for cells outside the table
    mutable int m_rows = -1;
    mutable int m_cols = -1;
};

} // namespace ss::ui
