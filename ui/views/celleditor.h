// SPDX-License-Identifier: GPL-3.0-or-later
// The inline editor over one cell of an editable tensor view. The text goes to the model, which
// reports it (TensorModel::elementEdited); the workbench decides what it means.
#pragma once

#include <QLineEdit>

#include <cstdint>

namespace ss::ui {

class TensorModel;

class CellEditor : public QLineEdit
{
public:
    CellEditor(TensorModel* model, QWidget* parent);

    /// Opens over `rect` (parent coordinates) with `text`; `selectAll` for F2 and double-click,
    /// not for an edit started by typing a character.
    void open(std::int64_t flat, const QRect& rect, const QString& text, bool selectAll);
    bool isOpen() const { return m_flat >= 0; }
    /// Closes without reporting anything.
    void cancel();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void commit();

    TensorModel* m_model;
    std::int64_t m_flat = -1;
};

} // namespace ss::ui
