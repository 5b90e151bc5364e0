// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/evaluationcontroller.h"

#include "ui/model/explain.h"
#include "ui/model/workspace.h"

namespace ss::ui {

namespace {

constexpr int kDebounceMs = 100;

} // namespace

EvaluationController::EvaluationController(EngineClient* engine,
                                           std::function<const Workspace&()> workspace,
                                           QObject* parent)
    : QObject(parent), m_engine(engine), m_workspace(std::move(workspace))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] {
        if (m_pending) {
            evaluateNow();
            m_debounce.start();
        }
    });
    connect(m_engine, &EngineClient::evaluated, this, &EvaluationController::onEvaluated);
    connect(m_engine, &EngineClient::cancelled, this, [this] {
        m_cancelled = true;
        emit cancelled();
    });
}

void EvaluationController::schedule()
{
    m_pending = true;
    // Leading edge: an edit after a quiet spell evaluates at once; edits that follow within the
    // debounce interval are gathered into one evaluation when it ends.
    if (!m_debounce.isActive()) {
        evaluateNow();
        m_debounce.start();
    }
}

void EvaluationController::evaluateNow()
{
    m_pending = false;
    m_engine->evaluate(m_workspace());
}

void EvaluationController::onEvaluated(const std::shared_ptr<const Evaluation>& eval)
{
    std::vector<std::shared_ptr<const Evaluation>> retired{m_last, m_good, m_shown};
    m_last = eval;
    if (eval->ok) m_good = eval;
    emit arrived(eval);
    // The views hold the new tensors now: the old evaluation may be the last owner of its buffers.
    m_engine->releaseLater(std::move(retired));
    emit delivered();
}

ShownChoice EvaluationController::show(const std::shared_ptr<const Evaluation>& newest)
{
    const ShownChoice choice = chooseShown(newest, m_good);
    m_failed = choice.failed;
    m_cancelled = false;
    m_shown = choice.outputs;
    m_linked = choice.linked;
    // Cancelled is not among the reasons: a result has come since.
    m_staleNote = ss::ui::isStale(bool(m_shown), {m_failed, false, m_unreadable})
                      ? staleNote(*findOp(m_shown->op), *m_shown, *newest)
                      : QString();
    return choice;
}

void EvaluationController::forgetShown()
{
    m_shown.reset();
    m_linked = false;
    m_stale = false;
    m_failed = false;
    m_cancelled = false;
}

QString EvaluationController::updateStaleness()
{
    m_stale = ss::ui::isStale(bool(m_shown), {m_failed, m_cancelled, m_unreadable});
    // What differs from the failed edit, when show() worked it out (staleNote); after a cancel,
    // the request the result belongs to.
    if (!m_stale) return {};
    if (!m_staleNote.isEmpty()) return m_staleNote;
    return tr("last good result of %1").arg(requestText(*findOp(m_shown->op), m_shown->attrs));
}

} // namespace ss::ui
