// SPDX-License-Identifier: GPL-3.0-or-later
// Walks an evaluation's trace one step at a time: encoding, ellipsis, sparse to dense, each
// dimension's canonicalisation, shapes. The window lights what the current step talks about.
#pragma once

#include "core/shape.h"
#include "core/trace.h"

#include <QWidget>

#include <vector>

class QAction;
class QLabel;
class QListWidget;
class QToolButton;
class QTextBrowser;

namespace ss::ui {

class DecodeStepper : public QWidget
{
    Q_OBJECT
public:
    explicit DecodeStepper(QWidget* parent = nullptr);

    /// Shows new steps. The current position is kept when the new trace is as long (the
    /// window moves it back to the start on every edit, which clears the highlights; showing
    /// another framework's steps keeps it). The shape line names the op's first input
    /// and first output as the views do ("params (4, 3) → output (2, 3)").
    void setSteps(std::vector<Step> steps, const Shape& inputShape, const Shape& outputShape,
                  const QString& inputName = QStringLiteral("input"),
                  const QString& outputName = QStringLiteral("output"));
    /// Marks the steps as belonging to the last good result (the newest edit failed).
    void setStale(bool stale);

    int stepCount() const { return int(m_steps.size()); }
    /// -1 when no step is chosen (nothing is lit).
    int currentStep() const { return m_current; }
    const Step* current() const;
    void setCurrentStep(int index);
    QString stepTitle(int index) const;

    /// The Previous and Next buttons' actions (Alt+Left, Alt+Right), for presentation mode's
    /// own buttons.
    QAction* previousAction() const;
    QAction* nextAction() const;

    void first();
    void previous();
    void next();
    void last();

signals:
    void currentStepChanged(int index);

private:
    void showCurrent();
    QString shapeLine() const;

    std::vector<Step> m_steps;
    Shape m_inputShape;
    Shape m_outputShape;
    QString m_inputName;
    QString m_outputName;
    int m_current = -1;
    QListWidget* m_list;
    QTextBrowser* m_detail;
    QLabel* m_shapes;
    QLabel* m_stale;
    QToolButton* m_first;
    QToolButton* m_previous;
    QToolButton* m_next;
    QToolButton* m_last;
};

} // namespace ss::ui
