// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/decodestepper.h"

#include "ui/views/palette.h"
#include "ui/views/plaintext.h"

#include <QAction>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::ui {

namespace {

// A button showing an action: the action carries the shortcut, so the key works at once
// (a button's own shortcut animates a click first), whichever widget of the window has focus.
QToolButton* stepButton(const QString& name, const QString& text, const QString& accessible,
                        const QKeySequence& key, QWidget* parent)
{
    auto* action = new QAction(text, parent);
    action->setObjectName(name + QStringLiteral("Action"));
    action->setShortcut(key);
    action->setShortcutContext(Qt::WindowShortcut);
    action->setToolTip(
        QStringLiteral("%1 (%2)").arg(accessible, key.toString(QKeySequence::NativeText)));
    parent->addAction(action);
    auto* b = new QToolButton(parent);
    b->setDefaultAction(action);
    b->setObjectName(name);
    b->setAccessibleName(accessible);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    return b;
}

// The theme's mark behind its text (rich text does not follow a theme switch: the shapes are
// written again with every step).
QString litEntry(const QString& text)
{
    return QStringLiteral("<span style=\"background-color:%1; color:%2;\">&nbsp;%3&nbsp;</span>")
        .arg(styleColor(ColorRole::Mark), styleColor(ColorRole::MarkText), text);
}

QString shapeHtml(const Shape& shape, const std::vector<int>& lit)
{
    QStringList parts;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        const QString size = QString::number(shape[k]);
        parts << (std::find(lit.begin(), lit.end(), int(k)) != lit.end() ? litEntry(size) : size);
    }
    return u'(' + parts.join(QStringLiteral(", ")) +
           (shape.size() == 1 ? QStringLiteral(",)") : QStringLiteral(")"));
}

} // namespace

DecodeStepper::DecodeStepper(QWidget* parent)
    : QWidget(parent), m_list(new QListWidget(this)), m_detail(new QTextBrowser(this)),
      m_shapes(new QLabel(this)),
      m_stale(new QLabel(tr("These steps belong to the last good result."), this)),
      m_first(stepButton(QStringLiteral("stepFirst"), tr("⇤ First"), tr("First step"),
                         QKeySequence(Qt::ALT | Qt::Key_Home), this)),
      m_previous(stepButton(QStringLiteral("stepPrevious"), tr("◀ Previous"), tr("Previous step"),
                            QKeySequence(Qt::ALT | Qt::Key_Left), this)),
      m_next(stepButton(QStringLiteral("stepNext"), tr("Next ▶"), tr("Next step"),
                        QKeySequence(Qt::ALT | Qt::Key_Right), this)),
      m_last(stepButton(QStringLiteral("stepLast"), tr("Last ⇥"), tr("Last step"),
                        QKeySequence(Qt::ALT | Qt::Key_End), this))
{
    setObjectName(QStringLiteral("decodeStepper"));
    m_list->setObjectName(QStringLiteral("decodeSteps"));
    m_list->setAccessibleName(tr("Decode steps"));
    m_list->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("stepDetail"));
    m_detail->setAccessibleName(tr("What the current step does"));
    m_detail->setOpenLinks(false);
    m_shapes->setObjectName(QStringLiteral("stepShapes"));
    m_shapes->setTextFormat(Qt::RichText);
    m_shapes->setWordWrap(true);
    m_stale->setObjectName(QStringLiteral("stepsStale"));
    // Wrapped: on one line it made the dock 275 px wide at least, too wide beside the exercises
    // at 1024 px.
    m_stale->setWordWrap(true);
    followTheme(m_stale, [this] {
        m_stale->setStyleSheet(
            QStringLiteral("color: %1; font-style: italic;").arg(styleColor(ColorRole::Warning)));
    });
    // Its line stays reserved while hidden, so the steps below never jump when an edit fails.
    QSizePolicy keep = m_stale->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_stale->setSizePolicy(keep);
    m_stale->hide();

    // Two by two: in one row they made the dock at least 285 px wide, and with the exercises
    // beside a six-dimensional input the window needed 1035 px of a 1024 px screen.
    auto* buttons = new QGridLayout;
    // Backwards on the left, forwards on the right.
    buttons->addWidget(m_previous, 0, 0);
    buttons->addWidget(m_next, 0, 1);
    buttons->addWidget(m_first, 1, 0);
    buttons->addWidget(m_last, 1, 1);
    // Three lines of each at the least, not the 70 px of a scroll area's own least height: with
    // those the dock made the window 353 px high at least, 3 more than 1024 x 700 at scale 2 has.
    for (QAbstractScrollArea* area :
         {static_cast<QAbstractScrollArea*>(m_list), static_cast<QAbstractScrollArea*>(m_detail)})
        area->setMinimumHeight(area->fontMetrics().lineSpacing() * 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_shapes);
    layout->addWidget(m_stale);
    layout->addWidget(m_list, 3);
    layout->addWidget(m_detail, 2);

    connect(m_first->defaultAction(), &QAction::triggered, this, &DecodeStepper::first);
    connect(m_previous->defaultAction(), &QAction::triggered, this, &DecodeStepper::previous);
    connect(m_next->defaultAction(), &QAction::triggered, this, &DecodeStepper::next);
    connect(m_last->defaultAction(), &QAction::triggered, this, &DecodeStepper::last);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row != m_current) setCurrentStep(row);
    });
    showCurrent();
}

void DecodeStepper::setSteps(std::vector<Step> steps, const Shape& inputShape,
                             const Shape& outputShape, const QString& inputName,
                             const QString& outputName)
{
    // Most edits explain themselves with the same steps (an index moved): the list is only
    // rebuilt, and laid out again, when they differ.
    const bool same = std::equal(steps.begin(), steps.end(), m_steps.begin(), m_steps.end(),
                                 [](const Step& a, const Step& b) {
                                     return a.title == b.title && a.detail == b.detail &&
                                            a.specEntries == b.specEntries &&
                                            a.inputDims == b.inputDims &&
                                            a.outputDims == b.outputDims;
                                 });
    if (same && inputShape == m_inputShape && outputShape == m_outputShape &&
        inputName == m_inputName && outputName == m_outputName)
        return;
    m_steps = std::move(steps);
    m_inputShape = inputShape;
    m_outputShape = outputShape;
    m_inputName = inputName;
    m_outputName = outputName;
    if (!same) {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (std::size_t k = 0; k < m_steps.size(); ++k) {
            auto* item = new QListWidgetItem(
                QStringLiteral("%1. %2").arg(k + 1).arg(QString::fromStdString(m_steps[k].title)),
                m_list);
            // A screen reader says what the step does without moving to it.
            item->setData(Qt::AccessibleDescriptionRole, QString::fromStdString(m_steps[k].detail));
        }
    }
    m_current = std::min(m_current, stepCount() - 1);
    showCurrent();
    emit currentStepChanged(m_current);
}

void DecodeStepper::setStale(bool stale)
{
    m_stale->setVisible(stale);
}

const Step* DecodeStepper::current() const
{
    return m_current >= 0 && m_current < stepCount() ? &m_steps[std::size_t(m_current)] : nullptr;
}

void DecodeStepper::setCurrentStep(int index)
{
    index = std::clamp(index, -1, stepCount() - 1);
    if (index == m_current) return;
    m_current = index;
    showCurrent();
    emit currentStepChanged(m_current);
}

QAction* DecodeStepper::previousAction() const
{
    return m_previous->defaultAction();
}

QAction* DecodeStepper::nextAction() const
{
    return m_next->defaultAction();
}

QString DecodeStepper::stepTitle(int index) const
{
    return index >= 0 && index < stepCount()
               ? QString::fromStdString(m_steps[std::size_t(index)].title)
               : QString();
}

void DecodeStepper::first()
{
    setCurrentStep(stepCount() > 0 ? 0 : -1);
}
void DecodeStepper::previous()
{
    setCurrentStep(std::max(0, m_current - 1));
}
void DecodeStepper::next()
{
    setCurrentStep(std::min(stepCount() - 1, m_current + 1));
}
void DecodeStepper::last()
{
    setCurrentStep(stepCount() - 1);
}

void DecodeStepper::showCurrent()
{
    {
        const QSignalBlocker block(m_list);
        m_list->setCurrentRow(m_current);
    }
    const Step* step = current();
    if (step) {
        m_detail->setHtml(QStringLiteral("<h3>%1</h3><p>%2</p>")
                              .arg(QString::fromStdString(step->title).toHtmlEscaped(),
                                   QString::fromStdString(step->detail).toHtmlEscaped()));
    } else if (m_steps.empty()) {
        m_detail->setHtml(tr("<p>No steps: the newest evaluation failed before the op could "
                             "explain itself.</p>"));
    } else {
        m_detail->setHtml(tr("<p>Press <b>Next</b> (Alt+Right) to walk through how the op reads "
                             "its arguments. Each step lights what it talks about in the "
                             "expression, the tables and the views.</p>"));
    }
    m_shapes->setText(shapeLine());
    m_shapes->setAccessibleName(plainText(m_shapes->text()));
    m_first->defaultAction()->setEnabled(stepCount() > 0 && m_current != 0);
    m_previous->defaultAction()->setEnabled(m_current > 0);
    m_next->defaultAction()->setEnabled(m_current < stepCount() - 1);
    m_last->defaultAction()->setEnabled(stepCount() > 0 && m_current != stepCount() - 1);
}

QString DecodeStepper::shapeLine() const
{
    if (m_steps.empty()) return {};
    const Step* step = current();
    const std::vector<int> none;
    return tr("%1 %2 → %3 %4")
        .arg(m_inputName.toHtmlEscaped(), shapeHtml(m_inputShape, step ? step->inputDims : none),
             m_outputName.toHtmlEscaped(),
             shapeHtml(m_outputShape, step ? step->outputDims : none));
}

} // namespace ss::ui
