// SPDX-License-Identifier: GPL-3.0-or-later
// When the workbench evaluates (a leading-edge debounce while typing) and which result it shows
// (the stale/good policy of ui/model/evaluationpolicy.h, with the state that policy reads: the
// newest evaluation, the last good one, the one on screen, why it is stale).
#pragma once

#include "ui/model/engineclient.h"
#include "ui/model/evaluationpolicy.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace ss::ui {

struct Workspace;

class EvaluationController : public QObject
{
    Q_OBJECT
public:
    /// Evaluates `workspace()` (the window's workspace as it is when the evaluation starts).
    EvaluationController(EngineClient* engine, std::function<const Workspace&()> workspace,
                         QObject* parent);

    /// An edit: evaluates at once after a quiet spell; edits that follow within the debounce
    /// interval are gathered into one evaluation when it ends.
    void schedule();
    /// Evaluates at once instead of after the debounce (benchmarks, the command line).
    void evaluateNow();
    /// An edit waits for its evaluation to start.
    bool isPending() const { return m_pending; }
    /// An edit waits or an evaluation runs.
    bool isBusy() const { return m_pending || m_engine->isBusy(); }

    /// Applies the policy to `newest` (the newest evaluation, or a framework's reading of it)
    /// and remembers what is on screen from now on. Not stale for a cancel any more: a result
    /// came after it.
    ShownChoice show(const std::shared_ptr<const Evaluation>& newest);
    /// Another op's result leaves the screen: nothing is shown, nothing is stale.
    void forgetShown();
    /// An argument field does not read (the op editor's state), so the views are stale.
    void setUnreadable(bool unreadable) { m_unreadable = unreadable; }
    /// Works out whether the result on show is stale now (isStale) and returns the note the
    /// greyed views carry, empty when it is not stale.
    QString updateStaleness();

    std::shared_ptr<const Evaluation> last() const { return m_last; }
    std::shared_ptr<const Evaluation> good() const { return m_good; }
    std::shared_ptr<const Evaluation> shown() const { return m_shown; }
    /// The input views show the shown result's inputs, so hover can link them.
    bool isLinked() const { return m_linked; }
    /// What differs between the shown result and the failed newest edit (staleNote), as show()
    /// worked it out; empty when the newest edit did not fail or nothing is shown.
    const QString& failedNote() const { return m_staleNote; }
    /// As updateStaleness() last found it.
    bool isStale() const { return m_stale; }

signals:
    /// The newest evaluation arrived (last() and good() say so): show it.
    void arrived(const std::shared_ptr<const Evaluation>& eval);
    /// After arrived(): the evaluations it replaced on screen are released.
    void delivered();
    /// The newest evaluation was cancelled: the views keep an older result, stale.
    void cancelled();

private:
    void onEvaluated(const std::shared_ptr<const Evaluation>& eval);

    EngineClient* m_engine;
    std::function<const Workspace&()> m_workspace;
    QTimer m_debounce;      ///< at most one evaluation start per 100 ms while typing
    bool m_pending = false; ///< an edit waits for its evaluation to start

    std::shared_ptr<const Evaluation> m_last;
    std::shared_ptr<const Evaluation> m_good;
    std::shared_ptr<const Evaluation> m_shown; ///< whose outputs (and steps) are on screen
    bool m_linked = false;
    bool m_failed = false;     ///< the newest evaluation failed (m_shown is older)
    bool m_cancelled = false;  ///< the newest evaluation was cancelled
    bool m_unreadable = false; ///< an argument field does not read
    bool m_stale = false;
    QString m_staleNote; ///< what differs from the failed edit (staleNote), for the greyed views
};

} // namespace ss::ui
