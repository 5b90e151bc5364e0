// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/inputpanel.h"

#include "core/error.h"
#include "protocol/shape_text.h"
#include "ui/editors/workbenchupdate.h"
#include "ui/views/palette.h"
#include "ui/views/tensorview.h"
#include "ui/views/viewcolumn.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace ss::ui {

namespace {

constexpr int kMinimumViewHeight = 110;

template <class W> W* named(W* widget, const QString& name, const QString& accessible)
{
    widget->setObjectName(name);
    widget->setAccessibleName(accessible);
    return widget;
}

} // namespace

InputControls::InputControls(const QString& prefix, const QString& label, QWidget* parent)
    : QWidget(parent), m_prefix(prefix), m_name(label),
      m_label(new QLabel(QStringLiteral("<b>%1</b>").arg(label.toHtmlEscaped()), this)),
      m_shape(named(new QLineEdit(this), prefix + QStringLiteral("Shape"),
                    tr("Shape of %1").arg(label))),
      m_dtype(named(new QComboBox(this), prefix + QStringLiteral("DType"),
                    tr("Element type of %1").arg(label))),
      m_fill(named(new QComboBox(this), prefix + QStringLiteral("Fill"),
                   tr("How %1 is filled").arg(label))),
      m_seed(named(new QSpinBox(this), prefix + QStringLiteral("Seed"),
                   tr("Random seed of %1").arg(label))),
      m_literal(named(new QLineEdit(this), prefix + QStringLiteral("Literal"),
                      tr("Literal value of %1").arg(label)))
{
    setObjectName(prefix + QStringLiteral("Controls"));
    m_shape->setPlaceholderText(tr("shape, e.g. 3, 4"));
    m_shape->setToolTip(shapeToolTip());
    m_shape->installEventFilter(this); // its tooltip says the whole shape when it is cut
    // Room for a typical shape, small enough that name, shape, dtype (as wide as "complex128")
    // and fill fit a view's width beside the outputs at 1280 x 800 with both docks open.
    m_shape->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("(10, 10)")));
    m_dtype->addItem(tr("auto"), QString());
    for (DType t : kAllDTypes)
        m_dtype->addItem(dtypeText(t), dtypeText(t));
    m_dtype->setToolTip(tr("Element type (auto: inferred from the literal, as TensorFlow does)"));
    for (FillKind f : {FillKind::Arange, FillKind::Zeros, FillKind::Ones, FillKind::Random,
                       FillKind::Literal, FillKind::Data})
        m_fill->addItem(f == FillKind::Data ? tr("cells") : fillKindName(f), int(f));
    m_fill->setToolTip(tr("arange counts 0, 1, 2, ...; random is repeatable with its seed; literal "
                          "takes a nested list; cells are values set one by one or loaded from a "
                          "file"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setPrefix(tr("seed "));
    m_literal->setPlaceholderText(tr("[[1, 2], [3, 4]]"));
    m_literal->setToolTip(tr("A nested list such as [[1, 2], [3, 4]], [1.5, nan], [true, false] or "
                             "[\"a0\", \"b1\"]"));

    // A literal can be long: it gets a line of its own. The element type and fill go to a second
    // line when the column is too narrow for one (arrange()).
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    m_firstRow = new QHBoxLayout;
    m_firstRow->addWidget(m_label);
    m_firstRow->addWidget(m_shape, 1);
    m_firstRow->addWidget(m_dtype);
    m_firstRow->addWidget(m_fill);
    m_firstRow->addWidget(m_seed);
    m_secondRow = new QHBoxLayout;
    column->addLayout(m_firstRow);
    column->addLayout(m_secondRow);
    column->addWidget(m_literal);

    // Every change but the workbench's own (setSource, showMade) is an edit, however it came.
    onFieldEdited(m_shape, this, [this](const QString& text) {
        Shape shape;
        try {
            shape = parseShape(text.toStdString());
        } catch (const OpError& e) {
            setShapeProblem(QString::fromUtf8(e.what()));
            return;
        }
        setShapeProblem({});
        if (shape == m_source.shape) return;
        m_source.shape = shape;
        if (m_source.fill == FillKind::Data)
            m_source.fill = FillKind::Arange; // new dimensions have no cells yet: count them
        emitEdit(QStringLiteral("shape"));
    });
    // An outline on show takes the new theme's red.
    followTheme(m_shape, [this] {
        if (!m_shape->styleSheet().isEmpty()) m_shape->setStyleSheet(unreadableFieldStyle());
    });
    connect(m_dtype, &QComboBox::currentIndexChanged, this, [this] {
        if (WorkbenchUpdate::isActive(m_dtype)) return;
        const QString name = m_dtype->currentData().toString();
        m_source.dtype = name.isEmpty() ? std::nullopt : dtypeFromName(name.toStdString());
        if (m_source.fill == FillKind::Data) m_source.fill = FillKind::Arange;
        emitEdit({}); // a choice: one step each, never merged
    });
    connect(m_fill, &QComboBox::currentIndexChanged, this, [this] {
        if (WorkbenchUpdate::isActive(m_fill)) return;
        const auto fill = FillKind(m_fill->currentData().toInt());
        if (fill == m_source.fill) return;
        if (fill == FillKind::Data) {
            // Cells come from editing a view or opening a file; there is nothing to switch to.
            setSource(m_source);
            return;
        }
        m_source.fill = fill;
        if (fill == FillKind::Literal && m_source.literal.isEmpty())
            m_source.literal = QStringLiteral("[[1, 2], [3, 4]]");
        emitEdit({});
    });
    connect(m_seed, &QSpinBox::valueChanged, this, [this](int seed) {
        if (WorkbenchUpdate::isActive(m_seed)) return;
        if (std::uint64_t(seed) == m_source.seed) return;
        m_source.seed = std::uint64_t(seed);
        emitEdit(QStringLiteral("seed"));
    });
    // A longer or shorter shape may need the other arrangement.
    connect(m_shape, &QLineEdit::textChanged, this, [this] { arrange(); });
    onFieldEdited(m_literal, this, [this](const QString& text) {
        m_source.literal = text;
        emitEdit(QStringLiteral("literal"));
    });
}

namespace {

/// The least width of `widget`.
int leastWidth(const QWidget* widget)
{
    return std::max(widget->minimumWidth(), widget->minimumSizeHint().width());
}

/// The width of `widgets` side by side in `row`, each as wide as `width` says.
int rowWidth(const QHBoxLayout* row, std::initializer_list<const QWidget*> widgets,
             const std::function<int(const QWidget*)>& width = leastWidth)
{
    int total = 0;
    int shown = 0;
    for (const QWidget* w : widgets) {
        if (w->isHidden()) continue;
        total += width(w);
        ++shown;
    }
    return total + std::max(0, shown - 1) * std::max(0, row->spacing());
}

} // namespace

int InputControls::shapeTextWidth() const
{
    // QLineEdit's least width holds one widest character (maxWidth) inside its frame and margins;
    // the text takes that character's place, with the 2 px the field keeps at each side of its
    // text and the cursor's pixel.
    const QFontMetrics metrics = m_shape->fontMetrics();
    return m_shape->minimumSizeHint().width() - metrics.maxWidth() +
           metrics.horizontalAdvance(m_shape->text()) + 2 * 2 + 1;
}

int InputControls::oneRowWidth() const
{
    // One line only if the shape shows whole in it: at 1024 px a rank-8 shape scrolled to
    // "(2, 2, 2" in a field as wide as "(10, 10)" beside the element type and fill.
    return rowWidth(m_firstRow, {m_label, m_shape, m_dtype, m_fill, m_seed},
                    [this](const QWidget* w) {
                        return w == m_shape ? std::max(leastWidth(w), shapeTextWidth())
                                            : leastWidth(w);
                    });
}

int InputControls::twoRowWidth() const
{
    return std::max(rowWidth(m_firstRow, {m_label, m_shape, m_seed}),
                    rowWidth(m_firstRow, {m_dtype, m_fill}));
}

QSize InputControls::minimumSizeHint() const
{
    // As narrow as two lines allow: a column beside the outputs at 1024 px (240 px) scrolled
    // sideways and cut the fill's name ("aran") when one line was the least.
    return {twoRowWidth(), QWidget::minimumSizeHint().height()};
}

void InputControls::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrange();
}

void InputControls::arrange()
{
    const bool oneRow = width() >= oneRowWidth();
    if (oneRow == (m_secondRow->count() == 0)) return;
    for (QWidget* w : {static_cast<QWidget*>(m_dtype), static_cast<QWidget*>(m_fill)}) {
        m_firstRow->removeWidget(w);
        m_secondRow->removeWidget(w);
    }
    if (oneRow) {
        // Before the seed, as they were.
        m_firstRow->insertWidget(m_firstRow->indexOf(m_seed), m_fill);
        m_firstRow->insertWidget(m_firstRow->indexOf(m_fill), m_dtype);
        // The second row, empty, takes no room.
        while (QLayoutItem* item = m_secondRow->takeAt(0))
            delete item;
    } else {
        m_secondRow->addWidget(m_dtype);
        m_secondRow->addWidget(m_fill);
        m_secondRow->addStretch(1);
    }
    updateGeometry();
}

void InputControls::setSource(const InputSource& source)
{
    m_source = source;
    const WorkbenchUpdate update(this);
    const QString shape = shapeText(source.shape);
    const auto shown = parseShapeText(m_shape->text());
    if (!shown || *shown != source.shape) showFieldText(m_shape, shape);
    setShapeProblem({});
    const QString dtype = source.dtype ? dtypeText(*source.dtype) : QString();
    // Cells of strings say which of NumPy's kinds they are: bytes ('S') or text ('U').
    const bool strings = source.fill == FillKind::Data && source.data.isValid() &&
                         source.data.dtype() == DType::String;
    const QString stringName = dtypeText(DType::String);
    m_dtype->setItemText(m_dtype->findData(stringName), !strings                   ? stringName
                                                        : source.data.holdsBytes() ? tr("bytes")
                                                                                   : tr("text"));
    m_dtype->setCurrentIndex(std::max(0, m_dtype->findData(dtype)));
    m_fill->setCurrentIndex(m_fill->findData(int(source.fill)));
    m_seed->setValue(int(std::min<std::uint64_t>(source.seed, std::numeric_limits<int>::max())));
    if (m_literal->text() != source.literal) {
        showFieldText(m_literal, source.literal);
        // A literal set from outside (a lesson, a file, undo) is shown from its beginning.
        if (!m_literal->hasFocus()) m_literal->setCursorPosition(0);
    }
    showFieldsFor(source.fill);
}

void InputControls::showMade(const Tensor& tensor)
{
    if (m_source.fill == FillKind::Literal || m_source.fill == FillKind::Data)
        showFieldText(m_shape, shapeText(tensor.shape()));
}

void InputControls::showFieldsFor(FillKind fill)
{
    const bool literal = fill == FillKind::Literal;
    m_seed->setVisible(fill == FillKind::Random);
    m_literal->setVisible(literal);
    arrange(); // the seed takes room on the first line
    updateGeometry();
    // A literal's shape follows from its nesting; cells keep the shape they were given.
    m_shape->setReadOnly(literal);
    m_shape->setToolTip(shapeToolTip());
}

QString InputControls::shapeToolTip() const
{
    const QString hint = m_shape->isReadOnly()
                             ? tr("The literal's shape, read from its nesting")
                             : tr("Dimension sizes, outermost first: \"5, 6\", \"(2, 3, 4)\"; "
                                  "empty or () for a scalar");
    // A shape wider than its field scrolls in it (three sizes of 2^40 at 1024 px).
    if (m_shape->text().isEmpty() || shapeTextWidth() <= m_shape->width()) return hint;
    return tr("Shape: %1\n%2").arg(m_shape->text(), hint);
}

bool InputControls::eventFilter(QObject* watched, QEvent* event)
{
    // At the moment it shows: the field's width and text are those it has then.
    if (watched == m_shape && event->type() == QEvent::ToolTip) m_shape->setToolTip(shapeToolTip());
    return QWidget::eventFilter(watched, event);
}

void InputControls::setShapeProblem(const QString& why)
{
    m_shape->setStyleSheet(why.isEmpty() ? QString() : unreadableFieldStyle());
    if (why == m_shapeProblem) return;
    m_shapeProblem = why;
    emit shapeProblemChanged();
}

QString InputControls::shapeName() const
{
    return tr("shape of %1").arg(m_name);
}

void InputControls::emitEdit(const QString& field)
{
    showFieldsFor(m_source.fill);
    // Keystrokes in one field merge into one undo step; an edit without a field never merges.
    emit sourceEdited(m_source, field.isEmpty() ? QString() : m_prefix + u':' + field);
}

InputPanel::InputPanel(QWidget* parent)
    : QWidget(parent), m_column(new ViewColumn(this)), m_splitter(m_column->splitter())
{
    setObjectName(QStringLiteral("inputPanel"));
    m_splitter->setObjectName(QStringLiteral("inputSplitter"));
    // Ops with many inputs (dynamic_stitch) scroll rather than stretch the window.
    m_column->setObjectName(QStringLiteral("inputScroll"));
    m_column->setAccessibleName(tr("Input tensors"));
    connect(m_column, &ViewColumn::scrolled, this, &InputPanel::ordersOnScreenChanged);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_column);
}

QSize InputPanel::minimumSizeHint() const
{
    // The inputs scroll down through many tensors, never sideways: the column is as wide as its
    // widest tensor's fields and view need, beside a vertical scroll bar.
    const int bar = m_column->verticalScrollBar()->sizeHint().width();
    return {m_splitter->minimumSizeHint().width() + bar + 2 * m_column->frameWidth(),
            QWidget::minimumSizeHint().height()};
}

void InputPanel::setWorkspace(const OpDef& def, const Workspace& ws)
{
    std::vector<std::size_t> counts;
    for (const auto& list : ws.inputs)
        counts.push_back(list.size());
    const bool rebuilt = def.name != m_op || counts != m_counts;
    if (rebuilt) rebuild(def, ws);
    m_inputs = ws.inputs;
    int slot = 0;
    for (const auto& list : ws.inputs)
        for (const InputSource& source : list)
            m_controls[std::size_t(slot++)]->setSource(source);
    // New views, their fields showing what their sources need: the column grows for them now,
    // in this call. Its splitter shared its old height among them, and the column grew a pass
    // later, so each view was shown at one height after another (dynamic_stitch's, 4 to 6
    // heights each on the way from two pairs to four), as the outputs' were.
    if (rebuilt) m_column->fitNow();
    checkUnreadable(); // the controls of a rebuild are new, and the old ones' problems gone
}

void InputPanel::checkUnreadable()
{
    std::vector<std::pair<QString, QString>> fields;
    QStringList names;
    for (const InputControls* controls : m_controls) {
        if (controls->shapeProblem().isEmpty()) continue;
        names << controls->shapeName();
        fields.emplace_back(names.back(), controls->shapeProblem());
    }
    const QString text = unreadableFieldsHtml(fields);
    if (text == m_unreadable) return;
    m_unreadable = text;
    emit unreadableChanged(text, names);
}

void InputPanel::setToolTipProvider(std::function<QString(int, std::int64_t)> provider)
{
    m_toolTips = std::move(provider);
    for (int s = 0; s < slotCount(); ++s)
        m_views[std::size_t(s)]->setToolTipProvider(
            [this, s](std::int64_t flat) { return m_toolTips(s, flat); });
}

void InputPanel::rebuild(const OpDef& def, const Workspace& ws)
{
    // Hidden at once, so that the column is sized for the new views alone until they go.
    for (QWidget* child :
         m_splitter->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        child->hide();
        child->deleteLater();
    }
    m_controls.clear();
    m_views.clear();
    m_op = def.name;
    m_counts.clear();
    int slot = 0;
    for (std::size_t k = 0; k < ws.inputs.size() && k < def.inputs.size(); ++k) {
        const InputDef& in = def.inputs[k];
        const QString name = QString::fromStdString(in.name);
        m_counts.push_back(ws.inputs[k].size());
        QWidget* listHeader = nullptr;
        if (in.isList) {
            listHeader = new QWidget;
            // The buttons go under the label, so a narrow panel need not scroll sideways.
            auto* headerColumn = new QVBoxLayout(listHeader);
            headerColumn->setContentsMargins(0, 0, 0, 0);
            headerColumn->addWidget(new QLabel(
                tr("<b>%1</b>: a list of %n tensor(s)", nullptr, int(ws.inputs[k].size()))
                    .arg(name)));
            auto* row = new QHBoxLayout;
            headerColumn->addLayout(row);
            auto* add = named(new QPushButton(tr("Add a tensor")), QStringLiteral("add_") + name,
                              tr("Add a tensor to %1").arg(name));
            auto* remove =
                named(new QPushButton(tr("Remove the last")), QStringLiteral("remove_") + name,
                      tr("Remove the last tensor of %1").arg(name));
            remove->setEnabled(!ws.inputs[k].empty());
            row->addWidget(add);
            row->addWidget(remove);
            row->addStretch(1);
            connect(add, &QPushButton::clicked, this, [this, k] {
                auto inputs = m_inputs;
                inputs[k].push_back(inputs[k].empty() ? InputSource{} : inputs[k].back());
                emit inputsEdited(inputs, QString());
            });
            connect(remove, &QPushButton::clicked, this, [this, k] {
                auto inputs = m_inputs;
                if (!inputs[k].empty()) inputs[k].pop_back();
                emit inputsEdited(inputs, QString());
            });
            if (ws.inputs[k].empty()) m_splitter->addWidget(listHeader);
        }
        for (std::size_t j = 0; j < ws.inputs[k].size(); ++j, ++slot) {
            const QString label = in.isList ? QStringLiteral("%1[%2]").arg(name).arg(j) : name;
            auto* block = new QWidget;
            block->setObjectName(QStringLiteral("input%1Block").arg(slot));
            auto* column = new QVBoxLayout(block);
            column->setContentsMargins(0, 0, 0, 0);
            if (listHeader && j == 0) column->addWidget(listHeader);
            auto* controls = new InputControls(QStringLiteral("input%1").arg(slot), label, block);
            auto* view = new TensorView(block);
            view->setMinimumHeight(kMinimumViewHeight);
            view->setObjectName(QStringLiteral("input%1View").arg(slot));
            view->setAccessibleName(tr("Input tensor %1").arg(label));
            view->setEditable(true);
            column->addWidget(controls);
            column->addWidget(view, 1);
            m_splitter->addWidget(block);
            m_controls.push_back(controls);
            m_views.push_back(view);
            connect(controls, &InputControls::shapeProblemChanged, this,
                    &InputPanel::checkUnreadable);
            connect(controls, &InputControls::sourceEdited, this,
                    [this, k, j](const InputSource& source, const QString& mergeKey) {
                        auto inputs = m_inputs;
                        inputs[k][j] = source;
                        emit inputsEdited(inputs, mergeKey);
                    });
            const int s = slot;
            connect(
                view, &TensorView::elementEdited, this,
                [this, s](qint64 flat, const QString& text) { emit elementEdited(s, flat, text); });
            connect(view, &TensorView::elementHovered, this,
                    [this, s](qint64 flat) { emit elementHovered(s, flat); });
            connect(view, &TensorView::settled, this, &InputPanel::viewSettled);
            connect(view, &TensorView::ordersOnScreenChanged, this,
                    &InputPanel::ordersOnScreenChanged);
            if (m_toolTips)
                view->setToolTipProvider(
                    [this, s](std::int64_t flat) { return m_toolTips(s, flat); });
        }
    }
}

} // namespace ss::ui
