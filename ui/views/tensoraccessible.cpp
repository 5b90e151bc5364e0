// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/tensoraccessible.h"

#include "ui/model/workspace.h"
#include "ui/views/heatmap.h"
#include "ui/views/plaintext.h"
#include "ui/views/tensorcanvas.h"
#include "ui/views/tensorview.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ss::ui {

namespace {

/// Past this many cells handed out, the oldest are forgotten (a client walking a huge table).
constexpr std::size_t kMaxCachedCells = 65536;
/// selectedCells() lists at most this many (a selection can hold millions).
constexpr std::int64_t kMaxSelectedCells = 100000;

TensorView* viewOf(QObject* object)
{
    for (QObject* o = object ? object->parent() : nullptr; o; o = o->parent())
        if (auto* view = qobject_cast<TensorView*>(o)) return view;
    return nullptr;
}

QAccessibleInterface* tensorFactory(const QString&, QObject* object)
{
    if (!object || !object->isWidgetType()) return nullptr;
    if (!qobject_cast<TensorCanvas*>(object) && !qobject_cast<HeatMap*>(object)) return nullptr;
    TensorView* view = viewOf(object);
    return view ? new TensorAccessible(static_cast<QWidget*>(object), view) : nullptr;
}

/// "input": the tensor's own name, without the view's remarks ("(last good result)").
QString tensorName(const TensorView& view)
{
    const QString title = view.title().section(QStringLiteral(" ("), 0, 0).trimmed();
    return title.isEmpty() ? QStringLiteral("x") : title;
}

} // namespace

// One element. Cells are not QObjects: the table hands them out and registers them, so that
// AT-SPI can give them ids, and reads everything from the model when asked. Flat index -1 is the
// placeholder cellAt() gives for coordinates outside the table: valid, but nothing and nowhere.
class TensorAccessible::Cell : public QAccessibleInterface, public QAccessibleTableCellInterface
{
public:
    Cell(const TensorAccessible* table, std::int64_t flat) : m_table(table), m_flat(flat) {}

    bool isValid() const override
    {
        return m_table->isValid() &&
               (isPlaceholder() || m_flat < m_table->view()->model()->tensor().size());
    }
    bool isPlaceholder() const { return m_flat < 0; }
    QObject* object() const override { return nullptr; }
    QWindow* window() const override { return m_table->window(); }
    QAccessibleInterface* childAt(int, int) const override { return nullptr; }
    QAccessibleInterface* parent() const override { return const_cast<TensorAccessible*>(m_table); }
    QAccessibleInterface* child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface*) const override { return -1; }
    QString text(QAccessible::Text t) const override
    {
        if (!isValid() || isPlaceholder()) return {};
        switch (t) {
        case QAccessible::Name: return m_table->elementName(m_flat);
        case QAccessible::Description: return m_table->elementDescription(m_flat);
        case QAccessible::Value: {
            const TensorModel* model = m_table->view()->model();
            return model->data(model->indexOfFlat(m_flat), Qt::DisplayRole).toString();
        }
        default: return {};
        }
    }
    void setText(QAccessible::Text, const QString&) override {}
    QRect rect() const override
    {
        TensorView* view = m_table->view();
        const QRect r = isValid() && !isPlaceholder() ? view->elementRect(m_flat) : QRect();
        return r.isNull() ? QRect() : QRect(view->mapToGlobal(r.topLeft()), r.size());
    }
    QAccessible::Role role() const override { return QAccessible::Cell; }
    QAccessible::State state() const override
    {
        QAccessible::State s;
        s.selectable = true;
        s.selected = isSelected();
        s.focusable = !isPlaceholder();
        s.focused =
            s.focusable && m_table->widget()->hasFocus() && m_table->currentElement() == m_flat;
        s.readOnly = !m_table->view()->model()->isEditable();
        s.editable = !s.readOnly;
        if (rect().isNull()) s.invisible = s.offscreen = true;
        return s;
    }
    void* interface_cast(QAccessible::InterfaceType type) override
    {
        return type == QAccessible::TableCellInterface
                   ? static_cast<QAccessibleTableCellInterface*>(this)
                   : nullptr;
    }

    bool isSelected() const override
    {
        return isValid() && !isPlaceholder() && m_table->view()->model()->readOrderAt(m_flat) >= 0;
    }
    QList<QAccessibleInterface*> columnHeaderCells() const override { return {}; }
    QList<QAccessibleInterface*> rowHeaderCells() const override { return {}; }
    int columnIndex() const override
    {
        const int cols = m_table->columnCount();
        return isPlaceholder() ? -1 : cols > 0 ? int(m_flat % cols) : 0;
    }
    int rowIndex() const override
    {
        const int cols = m_table->columnCount();
        return isPlaceholder() ? -1 : cols > 0 ? int(m_flat / cols) : 0;
    }
    int columnExtent() const override { return isPlaceholder() ? 0 : 1; }
    int rowExtent() const override { return isPlaceholder() ? 0 : 1; }
    QAccessibleInterface* table() const override { return const_cast<TensorAccessible*>(m_table); }

private:
    const TensorAccessible* m_table;
    std::int64_t m_flat;
};

TensorAccessible::TensorAccessible(QWidget* drawing, TensorView* view)
    : QAccessibleWidget(drawing, QAccessible::Table), m_view(view)
{
}

TensorAccessible::~TensorAccessible()
{
    for (const auto& [flat, id] : m_cells)
        QAccessible::deleteAccessibleInterface(id);
    if (m_noCell) QAccessible::deleteAccessibleInterface(m_noCell);
}

void TensorAccessible::install()
{
    static const bool installed = [] {
        QAccessible::installFactory(tensorFactory);
        return true;
    }();
    Q_UNUSED(installed);
}

void TensorAccessible::currentCellChanged(QWidget* drawing, std::int64_t flat)
{
    if (!QAccessible::isActive() || !drawing || !drawing->hasFocus() || flat < 0) return;
    QAccessibleInterface* table = QAccessible::queryAccessibleInterface(drawing);
    QAccessibleTableInterface* cells = table ? table->tableInterface() : nullptr;
    const int cols = cells ? cells->columnCount() : 0;
    if (cols <= 0 || flat / cols >= cells->rowCount()) return;
    QAccessibleInterface* cell = cells->cellAt(int(flat / cols), int(flat % cols));
    QAccessibleEvent event(cell, QAccessible::Focus);
    QAccessible::updateAccessibility(&event);
}

std::int64_t TensorAccessible::currentElement() const
{
    const auto* canvas = qobject_cast<const TensorCanvas*>(widget());
    return canvas ? canvas->currentElement() : -1;
}

QAccessibleInterface* TensorAccessible::focusChild() const
{
    // Only a current cell the table has: never cellAt(-1, -1).
    const std::int64_t flat = currentElement();
    const int cols = columnCount();
    if (flat < 0 || cols <= 0 || flat / cols >= rowCount()) return nullptr;
    return cellAt(int(flat / cols), int(flat % cols));
}

QString TensorAccessible::text(QAccessible::Text t) const
{
    if (t != QAccessible::Description) return QAccessibleWidget::text(t);
    const TensorModel* model = m_view->model();
    const Tensor& tensor = model->tensor();
    if (!tensor.isValid()) return QObject::tr("No tensor yet");
    QString text =
        QObject::tr("%1 %2 %3: %n row(s) of %4 column(s)", nullptr, rowCount())
            .arg(tensorName(*m_view), QString::fromLatin1(dtypeName(tensor.dtype()).data()),
                 shapeText(tensor.shape()))
            .arg(columnCount());
    const std::int64_t last = m_view->readOrderScaleEnd();
    if (last >= 0) text += QObject::tr("; the op reads %L1 elements").arg(last + 1);
    if (auto* heat = qobject_cast<HeatMap*>(widget())) {
        // The block the heat map is zoomed to, in the tensor's own coordinates.
        const auto span = [](const QCPRange& range, std::int64_t size) {
            const auto first = std::clamp<std::int64_t>(std::int64_t(std::ceil(range.lower)), 0,
                                                        std::max<std::int64_t>(size - 1, 0));
            const auto last = std::clamp<std::int64_t>(std::int64_t(std::floor(range.upper)), first,
                                                       std::max<std::int64_t>(size - 1, 0));
            return QStringLiteral("%1:%2").arg(first).arg(last + 1);
        };
        const Shape& shape = tensor.shape();
        QStringList parts;
        const auto pins = m_view->pinnedDims();
        for (int dim = 0; dim < int(shape.size()); ++dim) {
            const auto pin = std::find_if(pins.begin(), pins.end(),
                                          [dim](const auto& p) { return p.first == dim; });
            if (dim == m_view->faceRowDim())
                parts << span(heat->yAxis->range(), shape[std::size_t(dim)]);
            else if (dim == m_view->faceColDim())
                parts << span(heat->xAxis2->range(), shape[std::size_t(dim)]);
            else
                parts << (pin != pins.end() ? QString::number(pin->second) : QStringLiteral(":"));
        }
        text += QObject::tr("; shows %1[%2]").arg(tensorName(*m_view), parts.join(u", "));
        const std::int64_t hovered = m_view->hoveredElement();
        if (hovered >= 0 && hovered < tensor.size())
            text += QObject::tr("; under the mouse: %1, %2")
                        .arg(elementName(hovered), elementDescription(hovered));
    }
    return text;
}

int TensorAccessible::rowCount() const
{
    return m_view->model()->rowCount();
}

int TensorAccessible::columnCount() const
{
    return m_view->model()->columnCount();
}

int TensorAccessible::cellCount() const
{
    const std::int64_t cells = std::int64_t(rowCount()) * columnCount();
    // Room is left for the widget's own children (the cell editor, scroll bars).
    return int(std::min<std::int64_t>(cells, std::numeric_limits<int>::max() / 2));
}

int TensorAccessible::childCount() const
{
    return cellCount() + QAccessibleWidget::childCount();
}

void TensorAccessible::syncCells() const
{
    const int rows = rowCount(), cols = columnCount();
    if ((rows == m_rows && cols == m_cols && m_cells.size() < kMaxCachedCells)) return;
    for (const auto& [flat, id] : m_cells)
        QAccessible::deleteAccessibleInterface(id);
    m_cells.clear();
    m_rows = rows;
    m_cols = cols;
}

QAccessibleInterface* TensorAccessible::cellAt(int row, int column) const
{
    syncCells();
    if (row < 0 || column < 0 || row >= m_rows || column >= m_cols) {
        // Never null: Qt's bridge reads the answer's cell interface without checking it.
        if (QAccessibleInterface* none =
                m_noCell ? QAccessible::accessibleInterface(m_noCell) : nullptr)
            return none;
        auto* none = new Cell(this, -1);
        m_noCell = QAccessible::registerAccessibleInterface(none);
        return none;
    }
    const std::int64_t flat = std::int64_t(row) * m_cols + column;
    const auto it = m_cells.find(flat);
    if (it != m_cells.end()) return QAccessible::accessibleInterface(it->second);
    auto* cell = new Cell(this, flat);
    m_cells.emplace(flat, QAccessible::registerAccessibleInterface(cell));
    return cell;
}

QAccessibleInterface* TensorAccessible::child(int index) const
{
    // The cells first, then the drawing's own widgets: an open cell editor is reachable.
    const int cells = cellCount();
    if (index >= cells) return QAccessibleWidget::child(index - cells);
    const int cols = columnCount();
    return index >= 0 && cols > 0 ? cellAt(index / cols, index % cols) : nullptr;
}

int TensorAccessible::indexOfChild(const QAccessibleInterface* child) const
{
    if (!child) return -1;
    if (child->object()) {
        const int widget = QAccessibleWidget::indexOfChild(child);
        return widget < 0 ? -1 : cellCount() + widget;
    }
    const auto* cell = const_cast<QAccessibleInterface*>(child)->tableCellInterface();
    if (!cell || child->parent() != this || cell->rowIndex() < 0) return -1;
    return cell->rowIndex() * columnCount() + cell->columnIndex();
}

QAccessibleInterface* TensorAccessible::childAt(int x, int y) const
{
    const std::int64_t flat = m_view->elementAt(m_view->mapFromGlobal(QPoint(x, y)));
    const int cols = columnCount();
    return flat >= 0 && cols > 0 ? cellAt(int(flat / cols), int(flat % cols)) : nullptr;
}

void* TensorAccessible::interface_cast(QAccessible::InterfaceType type)
{
    if (type == QAccessible::TableInterface) return static_cast<QAccessibleTableInterface*>(this);
    return QAccessibleWidget::interface_cast(type);
}

int TensorAccessible::selectedCellCount() const
{
    const ReadOrder order = m_view->model()->readOrder();
    if (!order) return 0;
    return int(
        std::min<std::int64_t>(m_view->selection().selected, std::numeric_limits<int>::max()));
}

QList<QAccessibleInterface*> TensorAccessible::selectedCells() const
{
    // In the order the op reads them, which is what the colours say.
    QList<QAccessibleInterface*> cells;
    const ReadOrder order = m_view->model()->readOrder();
    const int cols = columnCount();
    if (!order || cols <= 0) return cells;
    for (const auto& [position, flat] : readElements(*order, kMaxSelectedCells))
        cells << cellAt(int(flat / cols), int(flat % cols));
    return cells;
}

QString TensorAccessible::columnDescription(int column) const
{
    return m_view->model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
}

QString TensorAccessible::rowDescription(int row) const
{
    return m_view->model()->headerData(row, Qt::Vertical, Qt::DisplayRole).toString();
}

void TensorAccessible::modelChange(QAccessibleTableModelChangeEvent*)
{
    m_rows = m_cols = -1;
    syncCells();
}

QString TensorAccessible::elementName(std::int64_t flat) const
{
    const TensorModel* model = m_view->model();
    const QString value = model->data(model->indexOfFlat(flat), Qt::DisplayRole).toString();
    return QStringLiteral("%1%2 = %3")
        .arg(tensorName(*m_view), coordText(flat, model->tensor().shape()), value);
}

QString TensorAccessible::elementDescription(std::int64_t flat) const
{
    const TensorModel* model = m_view->model();
    QStringList parts;
    const std::int64_t order = model->readOrderAt(flat);
    if (order >= 0)
        parts << QObject::tr("read #%1 of %2").arg(order + 1).arg(m_view->readOrderScaleEnd() + 1);
    else if (model->readOrder())
        parts << QObject::tr("not read");
    if (model->isOutlined(flat)) parts << QObject::tr("outlined");
    // An output tells where it came from: its tooltip's first line ("output[0, 1] comes from
    // input[1, 2]"); the lines after it explain each dimension, too long to hear for every cell.
    if (!model->isEditable()) {
        const QString tip = m_view->elementToolTip(flat);
        const QString origin = plainText(tip.section(QStringLiteral("<br>"), 0, 0));
        if (!origin.isEmpty()) parts << origin;
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace ss::ui
