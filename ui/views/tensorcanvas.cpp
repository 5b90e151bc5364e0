// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/tensorcanvas.h"

#include "ui/views/celleditor.h"
#include "ui/views/palette.h"
#include "ui/views/tensoraccessible.h"
#include "ui/views/viewstate.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <utility>

namespace ss::ui {

namespace {

constexpr int kMargin = 10;
constexpr int kHGap = 18;
constexpr int kVGap = 14;
constexpr int kGroupGap = 18;
constexpr int kCellPadding = 7;
constexpr int kMinCellWidth = 30;
constexpr int kMaxCellWidth = 220;
/// Cells measured to size the columns; past this the widest so far stands for the rest.
constexpr std::int64_t kMeasuredCells = 1 << 16;

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + t * (b.redF() - a.redF())),
                            float(a.greenF() + t * (b.greenF() - a.greenF())),
                            float(a.blueF() + t * (b.blueF() - a.blueF())));
}

/// The read-order ramp and its text colours, precomputed so a frame of cells costs lookups.
struct RampTable
{
    static constexpr int kSize = 256;
    std::array<QColor, kSize> fill;
    std::array<QColor, kSize> text;
    RampTable()
    {
        for (int i = 0; i < kSize; ++i) {
            fill[std::size_t(i)] = readOrderColor(double(i) / (kSize - 1));
            text[std::size_t(i)] = textColorOn(fill[std::size_t(i)]);
        }
    }
    static const RampTable& get()
    {
        static const RampTable table;
        return table;
    }
    static std::size_t slot(double t)
    {
        return std::size_t(std::clamp(t, 0.0, 1.0) * (kSize - 1) + 0.5);
    }
};

QFont labelFont(const QFont& base)
{
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * 0.85);
    return f;
}

/// A double stroke, dark outside and light inside, that stands out on every ramp colour.
void drawOutline(QPainter& p, const QRect& cell)
{
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(roleColor(ColorRole::CellHalo), 3));
    p.drawRect(cell.adjusted(1, 1, -2, -2));
    p.setPen(QPen(roleColor(ColorRole::CellOutline), 1));
    p.drawRect(cell.adjusted(3, 3, -4, -4));
}

/// A cell that differs from an exercise's target: a red frame and a red corner, which read
/// apart from the hover's outline and from every ramp colour.
void drawMark(QPainter& p, const QRect& cell)
{
    const QColor red = roleColor(ColorRole::CellMark);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(red, 2, Qt::DashLine));
    p.drawRect(cell.adjusted(1, 1, -2, -2));
    const int side = std::max(6, std::min(cell.width(), cell.height()) / 3);
    const QPoint corner = cell.topRight() + QPoint(-1, 0);
    const QPoint triangle[3] = {corner, corner - QPoint(side, 0), corner + QPoint(0, side)};
    p.setPen(Qt::NoPen);
    p.setBrush(red);
    p.drawPolygon(triangle, 3);
}

} // namespace

TensorCanvas::TensorCanvas(ViewState& state, QWidget* parent)
    : QAbstractScrollArea(parent), m_state(state), m_editor(new CellEditor(state.model, viewport()))
{
    setObjectName(QStringLiteral("canvas"));
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    viewport()->setMouseTracking(true);
    viewport()->setAutoFillBackground(false);
}

void TensorCanvas::relayout()
{
    m_editor->cancel();
    const FaceLayout& layout = m_state.layout;
    const Tensor& tensor = m_state.model->tensor();
    if (!tensor.isValid() || !layout.hasElements()) {
        m_contentSize = {};
        m_current = -1;
        updateScrollBars();
        viewport()->update();
        return;
    }
    const QFontMetrics fm(font());
    const QFontMetrics lfm(labelFont(font()));
    const ValueFormatter& formatter = m_state.model->formatter();
    const bool strings = tensor.dtype() == DType::String;
    qsizetype longest = 0;
    int widest = 0;
    std::int64_t measured = 0;
    layout.forEachShown([&](std::int64_t flat) {
        if (measured++ >= kMeasuredCells) return;
        const QString text = formatter.text(flat);
        // Digits share one advance, so for numbers the longest text is the widest.
        if (strings)
            widest = std::max(widest, fm.horizontalAdvance(text));
        else if (text.size() > longest)
            widest = fm.horizontalAdvance(text);
        longest = std::max(longest, text.size());
    });
    widest = std::max(widest, fm.horizontalAdvance(QLatin1Char('0')) * int(longest));
    const int colLabel = lfm.horizontalAdvance(QString::number(layout.cols() - 1)) + 8;
    m_cellWidth =
        std::clamp(std::max(widest + 2 * kCellPadding, colLabel), kMinCellWidth, kMaxCellWidth);
    m_cellHeight = fm.height() + 8;
    m_headerHeight = layout.rank() >= 1 ? lfm.height() + 6 : 0;
    m_rowLabelWidth =
        layout.rowDim() >= 0 ? lfm.horizontalAdvance(QString::number(layout.rows() - 1)) + 14 : 0;
    m_titleHeight = layout.rank() >= 3 ? fm.height() + 8 : 0;
    std::int64_t width = m_rowLabelWidth + layout.cols() * std::int64_t(m_cellWidth);
    if (m_titleHeight > 0)
        width = std::max<std::int64_t>(
            width, fm.horizontalAdvance(m_state.faceLabel(layout.faceCount() - 1)) + 8);
    const std::int64_t height =
        m_titleHeight + m_headerHeight + layout.rows() * std::int64_t(m_cellHeight);
    m_panelWidth = int(std::min<std::int64_t>(width, INT_MAX / 4));
    m_panelHeight = int(std::min<std::int64_t>(height, INT_MAX / 4));
    if (m_current >= 0 && !layout.locate(m_current)) m_current = -1;
    layoutGrid();
    updateScrollBars();
    viewport()->update();
    emit cellsOnScreenChanged();
}

void TensorCanvas::layoutGrid()
{
    const FaceLayout& layout = m_state.layout;
    const std::int64_t faces = layout.faceCount();
    const std::int64_t group = layout.groupSize();
    const std::int64_t avail = viewport()->width();
    const auto widthFor = [&](std::int64_t cols, std::int64_t groupSize) {
        return 2 * kMargin + cols * m_panelWidth + (cols - 1) * kHGap +
               ((cols - 1) / groupSize) * kGroupGap;
    };
    m_gridCols = 1;
    m_groupSize = group;
    if (faces > 1 && widthFor(group, group) <= avail) {
        // Whole runs of the innermost outer dim per grid row, as many as fit.
        std::int64_t runs = 1;
        while ((runs + 1) * group <= faces && widthFor((runs + 1) * group, group) <= avail)
            ++runs;
        m_gridCols = runs * group;
    } else if (faces > 1) {
        m_groupSize = faces; // a run wraps: no gaps between runs
        while (m_gridCols < group && widthFor(m_gridCols + 1, faces) <= avail)
            ++m_gridCols;
    }
    const std::int64_t gridRows = faces > 0 ? (faces + m_gridCols - 1) / m_gridCols : 0;
    const std::int64_t w = faces > 0 ? widthFor(m_gridCols, m_groupSize) : 0;
    const std::int64_t h =
        gridRows > 0 ? 2 * kMargin + gridRows * std::int64_t(m_panelHeight) + (gridRows - 1) * kVGap
                     : 0;
    m_contentSize = QSize(int(std::min<std::int64_t>(w, INT_MAX / 2)),
                          int(std::min<std::int64_t>(h, INT_MAX / 2)));
}

void TensorCanvas::updateScrollBars()
{
    const QSize view = viewport()->size();
    horizontalScrollBar()->setRange(0, std::max(0, m_contentSize.width() - view.width()));
    horizontalScrollBar()->setPageStep(view.width());
    horizontalScrollBar()->setSingleStep(m_cellWidth);
    verticalScrollBar()->setRange(0, std::max(0, m_contentSize.height() - view.height()));
    verticalScrollBar()->setPageStep(view.height());
    verticalScrollBar()->setSingleStep(m_cellHeight);
}

QPoint TensorCanvas::scrollOffset() const
{
    return {horizontalScrollBar()->value(), verticalScrollBar()->value()};
}

QRect TensorCanvas::visibleArea() const
{
    return viewport()->rect().translated(scrollOffset());
}

QRect TensorCanvas::panelRect(std::int64_t face) const
{
    const std::int64_t gx = face % m_gridCols;
    const std::int64_t gy = face / m_gridCols;
    const std::int64_t x = kMargin + gx * (m_panelWidth + kHGap) + (gx / m_groupSize) * kGroupGap;
    const std::int64_t y = kMargin + gy * (m_panelHeight + kVGap);
    return QRect(int(x), int(y), m_panelWidth, m_panelHeight);
}

QPoint TensorCanvas::cellOrigin(const QRect& panel) const
{
    return {panel.left() + m_rowLabelWidth, panel.top() + m_titleHeight + m_headerHeight};
}

TensorCanvas::CellRange TensorCanvas::cellsIn(const QRect& panel, const QRect& area) const
{
    const QPoint origin = cellOrigin(panel);
    CellRange r;
    r.firstRow = std::max<std::int64_t>(0, floorDiv(area.top() - origin.y(), m_cellHeight));
    r.lastRow =
        std::min(m_state.layout.rows() - 1, floorDiv(area.bottom() - origin.y(), m_cellHeight));
    r.firstCol = std::max<std::int64_t>(0, floorDiv(area.left() - origin.x(), m_cellWidth));
    r.lastCol =
        std::min(m_state.layout.cols() - 1, floorDiv(area.right() - origin.x(), m_cellWidth));
    return r;
}

std::optional<FaceCell> TensorCanvas::cellAt(const QPoint& pos) const
{
    const FaceLayout& layout = m_state.layout;
    const QPoint p = pos + scrollOffset();
    const std::int64_t faces = m_contentSize.isEmpty() ? 0 : layout.faceCount();
    for (std::int64_t face = 0; face < faces; ++face) {
        const QRect panel = panelRect(face);
        if (!panel.contains(p)) continue;
        const QPoint d = p - cellOrigin(panel);
        if (d.x() < 0 || d.y() < 0) return std::nullopt;
        const FaceCell cell{face, d.y() / m_cellHeight, d.x() / m_cellWidth};
        if (cell.row >= layout.rows() || cell.col >= layout.cols()) return std::nullopt;
        return cell;
    }
    return std::nullopt;
}

std::int64_t TensorCanvas::elementAt(const QPoint& pos) const
{
    const auto cell = cellAt(pos);
    return cell ? m_state.layout.flatIndex(*cell) : -1;
}

QRect TensorCanvas::elementRect(std::int64_t flat) const
{
    const QRect rect = contentRect(flat);
    return rect.isNull() ? rect : rect.translated(-scrollOffset());
}

void TensorCanvas::ensureVisible(std::int64_t flat, bool panelAtTop)
{
    if (!isVisible()) {
        m_reveal = flat;
        m_revealAtTop = panelAtTop;
        return;
    }
    const QRect rect = elementRect(flat);
    if (rect.isNull()) return;
    const int margin = std::min(3 * m_cellWidth, viewport()->width() / 4);
    const QRect view = viewport()->rect();
    if (rect.left() < view.left())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + rect.left() - margin);
    else if (rect.right() > view.right())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + rect.right() -
                                        view.right() + margin);
    const int vmargin = std::min(3 * m_cellHeight, viewport()->height() / 4);
    // The panel's top goes to the top only if the cell is then on screen (a face taller than the
    // viewport would leave it below).
    const int panelTop = panelRect(m_state.layout.locate(flat)->face).top() - kMargin;
    const bool fromPanelTop =
        panelAtTop && rect.bottom() + scrollOffset().y() - panelTop < view.height();
    if (fromPanelTop && (rect.top() < view.top() || rect.bottom() > view.bottom()))
        verticalScrollBar()->setValue(panelTop);
    else if (rect.top() < view.top())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + rect.top() - vmargin);
    else if (rect.bottom() > view.bottom())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + rect.bottom() - view.bottom() +
                                      vmargin);
}

bool TensorCanvas::anyVisible(const std::function<bool(std::int64_t)>& pred,
                              bool unobscuredOnly) const
{
    const FaceLayout& layout = m_state.layout;
    const QRect area = unobscuredOnly
                           ? viewport()->visibleRegion().boundingRect().translated(scrollOffset())
                           : visibleArea();
    if (area.isEmpty()) return false;
    const std::int64_t faces = m_contentSize.isEmpty() ? 0 : layout.faceCount();
    for (std::int64_t face = 0; face < faces; ++face) {
        const QRect panel = panelRect(face);
        if (!panel.intersects(area)) continue;
        const CellRange r = cellsIn(panel, area);
        for (std::int64_t row = r.firstRow; row <= r.lastRow; ++row)
            for (std::int64_t col = r.firstCol; col <= r.lastCol; ++col)
                if (pred(layout.flatIndex({face, row, col}))) return true;
    }
    return false;
}

void TensorCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    p.fillRect(viewport()->rect(), palette().color(QPalette::Base));
    if (m_contentSize.isEmpty()) {
        paintEmptyState(p, viewport()->rect());
        return;
    }
    p.translate(-scrollOffset());
    paintContent(p, visibleArea(), PaintOptions{});
}

void TensorCanvas::paintContent(QPainter& p, const QRect& area, const PaintOptions& options) const
{
    if (m_contentSize.isEmpty()) return;
    for (std::int64_t face = 0; face < m_state.layout.faceCount(); ++face) {
        const QRect panel = panelRect(face);
        if (panel.intersects(area)) paintPanel(p, face, panel, area, options);
    }
}

QRect TensorCanvas::contentRect(std::int64_t flat) const
{
    const auto cell = m_contentSize.isEmpty() ? std::nullopt : m_state.layout.locate(flat);
    if (!cell) return {};
    const QPoint origin = cellOrigin(panelRect(cell->face));
    return QRect(origin.x() + int(cell->col) * m_cellWidth,
                 origin.y() + int(cell->row) * m_cellHeight, m_cellWidth, m_cellHeight);
}

namespace {
/// Margin around the empty state's note in a picture.
constexpr int kEmptyStateMargin = 12;
} // namespace

QString TensorCanvas::emptyStateText() const
{
    const Tensor& tensor = m_state.model->tensor();
    return tensor.isValid()
               ? tr("shape %1: no elements").arg(QString::fromStdString(shapeTuple(tensor.shape())))
               : tr("no tensor");
}

QFont TensorCanvas::emptyStateFont() const
{
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    return f;
}

QSize TensorCanvas::emptyStateSize() const
{
    return QFontMetrics(emptyStateFont()).size(0, emptyStateText()) +
           QSize(2 * kEmptyStateMargin, 2 * kEmptyStateMargin);
}

void TensorCanvas::paintEmptyState(QPainter& p, const QRect& rect) const
{
    p.save();
    p.setFont(emptyStateFont());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect, Qt::AlignCenter, emptyStateText());
    p.restore();
}

void TensorCanvas::paintPanel(QPainter& p, std::int64_t face, const QRect& panel, const QRect& area,
                              const PaintOptions& options) const
{
    const FaceLayout& layout = m_state.layout;
    const QPalette& pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const QColor labelText = mix(text, base, 0.42);
    const QColor grid = mix(base, text, 0.14);
    const QColor dimBase = mix(base, pal.color(QPalette::Window), isDark(pal) ? 0.5 : 0.85);
    const QColor dimText = mix(text, dimBase, 0.45);
    const QColor tint = focusTint(pal);
    const QColor tintText = focusText(pal);
    const QFont cellFont = font();
    const QFont smallFont = labelFont(cellFont);
    const QPoint origin = cellOrigin(panel);
    const CellRange r = cellsIn(panel, area);

    if (m_titleHeight > 0) {
        // "x[0, 1, :, :]" token by token, so a focused dimension's token can be lit.
        const auto coords = layout.faceCoords(face);
        const QFontMetrics fm(cellFont);
        p.setFont(cellFont);
        int x = panel.left() + 2;
        const int baseline = panel.top() + (m_titleHeight + fm.ascent() - fm.descent()) / 2;
        const auto put = [&](const QString& s, bool lit) {
            const int w = fm.horizontalAdvance(s);
            if (lit) p.fillRect(QRect(x - 1, panel.top() + 2, w + 2, m_titleHeight - 4), tint);
            p.setPen(lit ? tintText : text);
            p.drawText(QPoint(x, baseline), s);
            x += w;
        };
        put(m_state.name + QLatin1Char('['), false);
        for (int d = 0; d < layout.rank(); ++d) {
            if (d > 0) put(QStringLiteral(", "), false);
            const bool faceDim = d == layout.rowDim() || d == layout.colDim();
            put(faceDim ? QStringLiteral(":") : QString::number(coords[std::size_t(d)]),
                m_state.isFocused(d));
        }
        put(QStringLiteral("]"), false);
    }

    p.setFont(smallFont);
    if (m_headerHeight > 0) {
        const QRect band(origin.x(), origin.y() - m_headerHeight, int(layout.cols()) * m_cellWidth,
                         m_headerHeight);
        const bool lit = layout.colDim() >= 0 && m_state.isFocused(layout.colDim());
        if (lit) p.fillRect(band, tint);
        p.setPen(lit ? tintText : labelText);
        for (std::int64_t c = r.firstCol; c <= r.lastCol; ++c)
            p.drawText(
                QRect(origin.x() + int(c) * m_cellWidth, band.top(), m_cellWidth, band.height()),
                Qt::AlignCenter, QString::number(c));
    }
    if (m_rowLabelWidth > 0) {
        const QRect band(panel.left(), origin.y(), m_rowLabelWidth,
                         int(layout.rows()) * m_cellHeight);
        const bool lit = m_state.isFocused(layout.rowDim());
        if (lit) p.fillRect(band, tint);
        p.setPen(lit ? tintText : labelText);
        for (std::int64_t row = r.firstRow; row <= r.lastRow; ++row)
            p.drawText(QRect(band.left(), origin.y() + int(row) * m_cellHeight, m_rowLabelWidth - 6,
                             m_cellHeight),
                       Qt::AlignRight | Qt::AlignVCenter, QString::number(row));
    }
    if (r.lastRow < r.firstRow || r.lastCol < r.firstCol) return;

    // Cells: a grid-coloured block shows through a one-pixel gap around every cell.
    const QRect block(origin.x() + int(r.firstCol) * m_cellWidth,
                      origin.y() + int(r.firstRow) * m_cellHeight,
                      int(r.lastCol - r.firstCol + 1) * m_cellWidth,
                      int(r.lastRow - r.firstRow + 1) * m_cellHeight);
    p.fillRect(block.adjusted(-1, -1, 0, 0), grid);
    p.setFont(cellFont);
    const QFontMetrics fm(cellFont);
    const TensorModel& model = *m_state.model;
    const ValueFormatter& formatter = model.formatter();
    const bool selection = m_state.hasSelection();
    const bool strings = model.tensor().dtype() == DType::String;
    const int align = (strings ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter;
    const RampTable& ramp = RampTable::get();
    std::vector<QRect> outlined, marked;
    QRect hovered, current;
    const std::int64_t base0 = layout.faceBase(face);
    for (std::int64_t row = r.firstRow; row <= r.lastRow; ++row) {
        for (std::int64_t col = r.firstCol; col <= r.lastCol; ++col) {
            const std::int64_t flat = base0 + row * layout.rowStride() + col * layout.colStride();
            const QRect cell(origin.x() + int(col) * m_cellWidth,
                             origin.y() + int(row) * m_cellHeight, m_cellWidth, m_cellHeight);
            std::int64_t order = model.readOrderAt(flat);
            if (order > options.revealUpTo) order = -1; // not read yet in this frame
            QColor fill = base, ink = text;
            if (order >= 0) {
                const std::size_t slot = RampTable::slot(m_state.orderFraction(order));
                fill = ramp.fill[slot];
                ink = ramp.text[slot];
            } else if (selection) {
                fill = dimBase;
                ink = dimText;
            }
            p.fillRect(cell.adjusted(0, 0, -1, -1), fill);
            p.setPen(ink);
            QString label = formatter.text(flat);
            const QRect textRect = cell.adjusted(kCellPadding, 0, -kCellPadding - 1, -1);
            if (strings) label = fm.elidedText(label, Qt::ElideRight, textRect.width());
            p.drawText(textRect, align, label);
            if (!options.marks) continue;
            if (model.isOutlined(flat)) outlined.push_back(cell);
            if (model.isMarked(flat)) marked.push_back(cell);
            if (flat == m_state.hovered) hovered = cell;
            if (flat == m_current) current = cell;
        }
    }
    if (!hovered.isNull()) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(pal.color(QPalette::Highlight), 2));
        p.drawRect(hovered.adjusted(1, 1, -2, -2));
    }
    for (const QRect& cell : marked)
        drawMark(p, cell);
    for (const QRect& cell : outlined)
        drawOutline(p, cell);
    if (!current.isNull() && hasFocus()) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(text, 1, Qt::DotLine));
        p.drawRect(current.adjusted(2, 2, -3, -3));
    }
}

void TensorCanvas::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    if (!m_contentSize.isEmpty()) layoutGrid();
    updateScrollBars();
    if (m_reveal >= 0 && isVisible()) ensureVisible(std::exchange(m_reveal, -1), m_revealAtTop);
    emit cellsOnScreenChanged();
}

void TensorCanvas::showEvent(QShowEvent* event)
{
    QAbstractScrollArea::showEvent(event);
    if (m_reveal >= 0) ensureVisible(std::exchange(m_reveal, -1), m_revealAtTop);
}

void TensorCanvas::scrollContentsBy(int, int)
{
    m_editor->cancel();
    viewport()->update();
    emit cellsOnScreenChanged();
}

bool TensorCanvas::viewportEvent(QEvent* event)
{
    switch (event->type()) {
    case QEvent::ToolTip: {
        const auto* help = static_cast<QHelpEvent*>(event);
        const std::int64_t flat = elementAt(help->pos());
        if (flat < 0 || !m_state.toolTip) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), m_state.toolTip(flat), viewport(),
                               elementRect(flat));
        }
        return true;
    }
    case QEvent::Leave: setHovered(-1); break;
    default: break;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TensorCanvas::setHovered(std::int64_t flat)
{
    if (flat == m_state.hovered) return;
    m_state.hovered = flat;
    viewport()->update();
    emit hovered(flat);
}

void TensorCanvas::mouseMoveEvent(QMouseEvent* event)
{
    setHovered(elementAt(event->position().toPoint()));
    QAbstractScrollArea::mouseMoveEvent(event);
}

void TensorCanvas::mousePressEvent(QMouseEvent* event)
{
    const std::int64_t flat = elementAt(event->position().toPoint());
    const bool hadFocus = hasFocus();
    if (flat >= 0) {
        m_current = flat;
        viewport()->update();
    }
    setFocus(Qt::MouseFocusReason); // says the current cell if the focus is new
    if (hadFocus && flat >= 0) TensorAccessible::currentCellChanged(this, m_current);
    QAbstractScrollArea::mousePressEvent(event);
}

void TensorCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    const std::int64_t flat = elementAt(event->position().toPoint());
    if (flat < 0) return QAbstractScrollArea::mouseDoubleClickEvent(event);
    m_current = flat;
    startEdit(m_state.model->formatter().editText(flat), true);
}

void TensorCanvas::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Left: moveCurrent(0, -1); return;
    case Qt::Key_Right: moveCurrent(0, 1); return;
    case Qt::Key_Up: moveCurrent(-1, 0); return;
    case Qt::Key_Down: moveCurrent(1, 0); return;
    case Qt::Key_F2:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_current >= 0) startEdit(m_state.model->formatter().editText(m_current), true);
        return;
    default: break;
    }
    const QString typed = event->text();
    if (m_current >= 0 && m_state.model->isEditable() && !typed.isEmpty() &&
        typed.at(0).isPrint() && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
        startEdit(typed, false);
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void TensorCanvas::moveCurrent(int dRow, int dCol)
{
    const FaceLayout& layout = m_state.layout;
    if (m_contentSize.isEmpty()) return;
    auto cell = m_current >= 0 ? layout.locate(m_current) : std::nullopt;
    if (!cell)
        cell = FaceCell{};
    else {
        cell->row = std::clamp<std::int64_t>(cell->row + dRow, 0, layout.rows() - 1);
        cell->col = std::clamp<std::int64_t>(cell->col + dCol, 0, layout.cols() - 1);
    }
    m_current = layout.flatIndex(*cell);
    ensureVisible(m_current);
    viewport()->update();
    TensorAccessible::currentCellChanged(this, m_current);
}

void TensorCanvas::focusInEvent(QFocusEvent* event)
{
    QAbstractScrollArea::focusInEvent(event);
    // A table with the focus has a current cell, for the arrows to start from and for a screen
    // reader to say (Orca asks the table for it): the first cell unless one was chosen.
    if (m_current < 0 && !m_contentSize.isEmpty()) {
        m_current = m_state.layout.flatIndex(FaceCell{});
        viewport()->update();
    }
    // After the focus event Qt sends for the canvas itself (it follows this handler), so that
    // the cell is what a screen reader hears last.
    QMetaObject::invokeMethod(
        this, [this] { TensorAccessible::currentCellChanged(this, m_current); },
        Qt::QueuedConnection);
}

void TensorCanvas::startEdit(const QString& initial, bool selectAll)
{
    if (!m_state.model->isEditable() || m_current < 0) return;
    ensureVisible(m_current);
    const QRect rect = elementRect(m_current);
    if (!rect.isNull()) m_editor->open(m_current, rect, initial, selectAll);
}

void TensorCanvas::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) relayout();
}

} // namespace ss::ui
