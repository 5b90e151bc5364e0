// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/celleditor.h"

#include "ui/views/tensorview.h"

#include <QKeyEvent>

#include <algorithm>
#include <utility>

namespace ss::ui {

CellEditor::CellEditor(TensorModel* model, QWidget* parent) : QLineEdit(parent), m_model(model)
{
    setObjectName(QStringLiteral("cellEditor"));
    setAccessibleName(tr("Element value"));
    hide();
}

void CellEditor::open(std::int64_t flat, const QRect& rect, const QString& text, bool selectAll)
{
    m_flat = flat;
    setText(text);
    // Wide enough for a long number even over a narrow or sub-pixel cell.
    const int width = std::max(rect.width(), fontMetrics().horizontalAdvance(text) + 24);
    const int height = std::max(rect.height(), sizeHint().height());
    setGeometry(QRect(rect.topLeft(), QSize(std::max(width, 80), height)));
    if (selectAll)
        QLineEdit::selectAll();
    else
        end(false);
    show();
    raise();
    setFocus(Qt::OtherFocusReason);
}

void CellEditor::cancel()
{
    if (!isOpen()) return;
    m_flat = -1;
    hide();
    parentWidget()->setFocus(Qt::OtherFocusReason);
}

void CellEditor::commit()
{
    if (!isOpen()) return;
    const std::int64_t flat = std::exchange(m_flat, -1);
    hide();
    parentWidget()->setFocus(Qt::OtherFocusReason);
    m_model->setData(m_model->indexOfFlat(flat), text(), Qt::EditRole);
}

void CellEditor::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Escape: cancel(); return;
    case Qt::Key_Return:
    case Qt::Key_Enter: commit(); return;
    default: QLineEdit::keyPressEvent(event);
    }
}

void CellEditor::focusOutEvent(QFocusEvent* event)
{
    QLineEdit::focusOutEvent(event);
    // Like Qt's item views: clicking elsewhere keeps what was typed.
    if (event->reason() != Qt::PopupFocusReason) commit();
}

} // namespace ss::ui
