// SPDX-License-Identifier: GPL-3.0-or-later
// The cell drawing of a tensor view: faces laid out side by side like NumPy's printout, every
// number painted over its read-order colour. Only the cells inside the viewport are painted, so
// the cost of a frame does not grow with the tensor.
#pragma once

#include "ui/views/facelayout.h"

#include <QAbstractScrollArea>

#include <cstdint>
#include <functional>
#include <optional>

namespace ss::ui {

class CellEditor;
struct ViewState;

class TensorCanvas : public QAbstractScrollArea
{
    Q_OBJECT
public:
    TensorCanvas(ViewState& state, QWidget* parent);

    /// Recomputes cell sizes and the face grid (after a new tensor, layout, pins or font).
    void relayout();
    /// The element under a viewport point, or -1.
    std::int64_t elementAt(const QPoint& pos) const;
    /// An element's cell in viewport coordinates; null if the pins hide it.
    QRect elementRect(std::int64_t flat) const;
    /// Scrolls the least needed to show element `flat` (if the pins show it); with `panelAtTop`,
    /// a scroll down or up brings the top of its face's panel to the top instead, so the face
    /// reads from its title. Before the canvas is shown, once it is (a hidden viewport has no
    /// size to scroll within).
    void ensureVisible(std::int64_t flat, bool panelAtTop = false);
    /// Whether any cell inside the viewport satisfies `pred(flat)`; with `unobscuredOnly`, only
    /// the part of the viewport its ancestors leave on screen counts (a view inside a scroll
    /// area scrolled away has none).
    bool anyVisible(const std::function<bool(std::int64_t)>& pred,
                    bool unobscuredOnly = false) const;

    /// How a drawing of the cells differs from the screen's: pictures (File > Export Image) and
    /// the frames of a read-order animation have no hover, outline or keyboard cell, and a frame
    /// shows only the cells read up to some read position.
    struct PaintOptions
    {
        bool marks = true; ///< hover, linked outline and the keyboard's cell
        /// Selected cells read after this position are drawn as not read (yet).
        std::int64_t revealUpTo = INT64_MAX;
    };
    /// The size of the whole drawing: every face the pins leave, not only the part on screen.
    QSize contentSize() const { return m_contentSize; }
    /// Paints the cells and labels inside `area` (content coordinates) in content coordinates:
    /// the one painter path of the screen (paintEvent) and of pictures, whatever the device.
    void paintContent(QPainter& p, const QRect& area, const PaintOptions& options) const;
    /// With no cells to draw (a 0-size tensor, or none): the note the screen shows in their
    /// place ("shape (0, 3): no elements"), centred in `rect`; pictures show it too.
    void paintEmptyState(QPainter& p, const QRect& rect) const;
    /// The room that note needs in a picture.
    QSize emptyStateSize() const;
    /// An element's cell in content coordinates; null if the pins hide it.
    QRect contentRect(std::int64_t flat) const;
    /// The keyboard's cell (arrows move it, Enter edits it), or -1; the accessible table's
    /// current cell.
    std::int64_t currentElement() const { return m_current; }

signals:
    void hovered(qint64 flatIndex);
    /// The cells inside the viewport may be others now (scrolled, resized, laid out anew).
    void cellsOnScreenChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct CellRange
    {
        std::int64_t firstRow = 0, lastRow = -1, firstCol = 0, lastCol = -1;
    };

    /// A face's panel (title, column labels, row labels, cells) in content coordinates.
    QRect panelRect(std::int64_t face) const;
    /// The top-left corner of a panel's cell [0, 0] in content coordinates.
    QPoint cellOrigin(const QRect& panel) const;
    /// The cells of a panel that intersect `area` (content coordinates).
    CellRange cellsIn(const QRect& panel, const QRect& area) const;
    std::optional<FaceCell> cellAt(const QPoint& pos) const;
    QPoint scrollOffset() const;
    QRect visibleArea() const;
    void layoutGrid();
    void updateScrollBars();
    void paintPanel(QPainter& p, std::int64_t face, const QRect& panel, const QRect& area,
                    const PaintOptions& options) const;
    QString emptyStateText() const;
    QFont emptyStateFont() const;
    void setHovered(std::int64_t flat);
    void moveCurrent(int dRow, int dCol);
    void startEdit(const QString& initial, bool selectAll);

    ViewState& m_state;
    CellEditor* m_editor;
    int m_cellWidth = 40;
    int m_cellHeight = 22;
    int m_rowLabelWidth = 0;
    int m_headerHeight = 0;
    int m_titleHeight = 0;
    int m_panelWidth = 0;
    int m_panelHeight = 0;
    std::int64_t m_gridCols = 1;
    std::int64_t m_groupSize = 1; ///< faces per group along a grid row (an extra gap between)
    QSize m_contentSize;
    std::int64_t m_current = -1; ///< the keyboard's cell
    std::int64_t m_reveal = -1;  ///< to show once the canvas is visible
    bool m_revealAtTop = false;
};

} // namespace ss::ui
