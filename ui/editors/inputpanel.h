// SPDX-License-Identifier: GPL-3.0-or-later
// The op's input tensors: for each, how it is made (shape, dtype, fill, seed or a typed
// literal) above its view. List inputs (concat's values) can grow and shrink.
#pragma once

#include "core/op.h"
#include "ui/model/workspace.h"

#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QSplitter;

namespace ss::ui {

class TensorView;
class ViewColumn;

/// How one input tensor is made. `prefix` ("input0") starts the objectNames of its fields.
class InputControls : public QWidget
{
    Q_OBJECT
public:
    InputControls(const QString& prefix, const QString& label, QWidget* parent = nullptr);

    /// Shows a source (not reported as an edit).
    void setSource(const InputSource& source);
    /// Shows the shape and dtype a literal turned out to have.
    void showMade(const Tensor& tensor);
    /// The fields a person types into (the automation channel edits through them).
    QLineEdit* shapeField() const { return m_shape; }
    QComboBox* dtypeField() const { return m_dtype; }
    QComboBox* fillField() const { return m_fill; }
    QSpinBox* seedField() const { return m_seed; }
    QLineEdit* literalField() const { return m_literal; }
    /// Why the shape field's text is not a shape; empty while it is one.
    QString shapeProblem() const { return m_shapeProblem; }
    /// The shape field as messages name it ("shape of input").
    QString shapeName() const;

    QSize minimumSizeHint() const override;

signals:
    void sourceEdited(const ss::ui::InputSource& source, const QString& mergeKey);
    void shapeProblemChanged();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// One line when the width holds every field and the whole shape, else the element type and
    /// fill on a second.
    void arrange();
    /// The width the shape field needs to show its text whole.
    int shapeTextWidth() const;
    /// The shape field's tooltip: how to write a shape (or that a literal's is read from it),
    /// after the whole shape when the field is too narrow to show it.
    QString shapeToolTip() const;
    int oneRowWidth() const;
    int twoRowWidth() const;

    void showFieldsFor(FillKind fill);
    /// `field` names a typed-in field (its keystrokes merge into one undo step); empty: a
    /// choice, one step of its own.
    void emitEdit(const QString& field);
    /// Outlines the shape field while `why` says it does not read.
    void setShapeProblem(const QString& why);

    QString m_prefix;
    QString m_name; ///< what the window calls this input ("input", "values[1]")
    InputSource m_source;
    QString m_shapeProblem;
    QLabel* m_label;
    QLineEdit* m_shape;
    QComboBox* m_dtype;
    QComboBox* m_fill;
    QSpinBox* m_seed;
    QLineEdit* m_literal;
    QHBoxLayout* m_firstRow;
    QHBoxLayout* m_secondRow;
};

class InputPanel : public QWidget
{
    Q_OBJECT
public:
    explicit InputPanel(QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;

    /// Shows the inputs of `ws` for `def`; views are rebuilt only when the slots change, so
    /// their scroll positions and face choices survive edits.
    void setWorkspace(const OpDef& def, const Workspace& ws);
    int slotCount() const { return int(m_views.size()); }
    TensorView* view(int slot) const { return m_views[std::size_t(slot)]; }
    InputControls* controls(int slot) const { return m_controls[std::size_t(slot)]; }
    /// Tooltips of the input elements, for the views of now and those built later.
    void setToolTipProvider(std::function<QString(int slot, std::int64_t flatIndex)> provider);

signals:
    /// The shape fields that do not read, as OpEditorHost::unreadableChanged says the op's
    /// fields: `html` why ("<b>shape of input</b> does not parse: ..."), `names` which.
    void unreadableChanged(const QString& html, const QStringList& names);
    void inputsEdited(const std::vector<std::vector<ss::ui::InputSource>>& inputs,
                      const QString& mergeKey);
    void elementEdited(int slot, qint64 flatIndex, const QString& text);
    void elementHovered(int slot, qint64 flatIndex);
    /// A view finished its background work (TensorView::settled).
    void viewSettled();
    /// A view's TensorView::ordersOnScreenChanged().
    void ordersOnScreenChanged();

private:
    void rebuild(const OpDef& def, const Workspace& ws);
    void checkUnreadable();

    std::vector<std::vector<InputSource>> m_inputs;
    std::string m_op;
    std::vector<std::size_t> m_counts; ///< tensors per op input, as last built
    ViewColumn* m_column;
    QSplitter* m_splitter; ///< the column's
    std::vector<InputControls*> m_controls;
    std::vector<TensorView*> m_views;
    std::function<QString(int, std::int64_t)> m_toolTips;
    QString m_unreadable; ///< the last unreadableChanged's html
};

} // namespace ss::ui
