// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's status bar: the shapes of the result on show, whether it is stale and why,
// the evaluation's progress with a Cancel button (only for evaluations that take long enough to
// notice), and the timings.
#pragma once

#include <QObject>
#include <QStringList>
#include <QTimer>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace ss::ui {

class EngineClient;
class EvaluationController;

class StatusPanel : public QObject
{
    Q_OBJECT
public:
    /// Fills `bar` with the state of `evaluation` and the progress of `engine`'s work.
    StatusPanel(QStatusBar* bar, EngineClient* engine, const EvaluationController* evaluation);

    /// Reads the evaluations again.
    void update();
    /// The attribute fields that do not read (the stale note names them).
    void setUnreadable(const QStringList& names) { m_unreadable = names; }
    /// The shapes line ("input int32 (5, 6) · 30 elements → ...").
    QString shapes() const;

private:
    void busyChanged(bool busy);
    /// The state in the theme's warning colour while it says "stale".
    void colourState();

    EngineClient* m_engine;
    const EvaluationController* m_evaluation;
    QLabel* m_shapes;
    QLabel* m_time;
    QLabel* m_state;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QTimer m_progressDelay; ///< progress shows only for evaluations that take a while
    QStringList m_unreadable;
    bool m_stateColoured = false; ///< the state says "stale"
};

} // namespace ss::ui
