// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/statuspanel.h"

#include "ui/model/engineclient.h"
#include "ui/model/explain.h"
#include "ui/views/palette.h"
#include "ui/views/valueformatter.h"
#include "ui/workbench/evaluationcontroller.h"

#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace ss::ui {

namespace {

constexpr int kProgressDelayMs = 150;

QString tensorSummary(const QString& name, const Tensor& t)
{
    const QString count = QLocale().toString(qlonglong(t.size()));
    return QStringLiteral("%1 %2 %3 · %4")
        .arg(name, dtypeText(t.dtype()), shapeText(t.shape()),
             t.size() == 1 ? QObject::tr("1 element") : QObject::tr("%1 elements").arg(count));
}

// One tensor in full; several as a count, so the line fits the status bar.
QString tensorsSummary(const QStringList& names, const std::vector<Tensor>& tensors,
                       const QString& plural)
{
    if (tensors.size() == 1) return tensorSummary(names.value(0), tensors.front());
    std::int64_t total = 0;
    for (const Tensor& t : tensors)
        total += t.size();
    return QStringLiteral("%1 %2 · %3 elements")
        .arg(tensors.size())
        .arg(plural, QLocale().toString(qlonglong(total)));
}

} // namespace

StatusPanel::StatusPanel(QStatusBar* bar, EngineClient* engine,
                         const EvaluationController* evaluation)
    : QObject(bar), m_engine(engine), m_evaluation(evaluation), m_shapes(new QLabel),
      m_time(new QLabel), m_state(new QLabel), m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel")))
{
    m_shapes->setObjectName(QStringLiteral("statusShapes"));
    // A long line of shapes is cut rather than pushing the timing out of sight.
    m_shapes->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_time->setObjectName(QStringLiteral("statusTime"));
    m_state->setObjectName(QStringLiteral("statusState"));
    followTheme(m_state, [this] { colourState(); });
    m_progress->setObjectName(QStringLiteral("evaluationProgress"));
    m_progress->setAccessibleName(tr("Evaluation progress"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancel->setObjectName(QStringLiteral("cancelEvaluation"));
    m_cancel->setAccessibleName(tr("Cancel the evaluation"));
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, engine, &EngineClient::cancel);
    bar->setObjectName(QStringLiteral("statusBar"));
    bar->addWidget(m_shapes, 1);
    bar->addPermanentWidget(m_state);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
    bar->addPermanentWidget(m_time);

    m_progressDelay.setSingleShot(true);
    m_progressDelay.setInterval(kProgressDelayMs);
    connect(&m_progressDelay, &QTimer::timeout, this, [this] {
        if (m_engine->isBusy()) {
            m_progress->setValue(0);
            m_progress->show();
            m_cancel->show();
        }
    });
    connect(engine, &EngineClient::busyChanged, this, &StatusPanel::busyChanged);
    connect(engine, &EngineClient::progress, this,
            [this](double fraction) { m_progress->setValue(int(fraction * 1000)); });
}

QString StatusPanel::shapes() const
{
    return m_shapes->text();
}

void StatusPanel::busyChanged(bool busy)
{
    if (busy) {
        m_progressDelay.start();
    } else {
        m_progressDelay.stop();
        m_progress->hide();
        m_cancel->hide();
    }
    update();
}

void StatusPanel::update()
{
    const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
    const std::shared_ptr<const Evaluation> last = m_evaluation->last();
    const bool stale = m_evaluation->isStale();
    if (shown) {
        const OpDef& def = *findOp(shown->op);
        const std::vector<Tensor> tensors = shown->slotTensors();
        m_shapes->setText(tensorsSummary(slotNames(def, *shown), tensors, tr("inputs")) +
                          QStringLiteral("  →  ") +
                          (shown->outputs.empty() ? tr("no tensor output")
                                                  : tensorsSummary(outputNames(def, *shown),
                                                                   shown->outputs, tr("outputs"))));
        m_time->setText(tr("op %1 ms · total %2 ms")
                            .arg(QLocale().toString(shown->opMs, 'f', 2),
                                 QLocale().toString(shown->totalMs, 'f', 2)));
    } else if (last && !last->ok) {
        m_shapes->setText(
            tr("No result: %1").arg(QString::fromLatin1(errorCodeName(last->code).data())));
        m_time->clear();
    } else {
        m_shapes->setText(last ? tr("No result yet") : tr("Evaluating…"));
        m_time->clear();
    }
    const bool busy = m_evaluation->isBusy();
    m_state->setText(
        busy ? tr("evaluating…")
        : stale && !m_unreadable.empty()
            ? tr("stale: %1 does not parse").arg(m_unreadable.join(QStringLiteral(", ")))
        : stale ? tr("stale: showing the last good result")
                : QString());
    m_stateColoured = !busy && stale;
    colourState();
}

void StatusPanel::colourState()
{
    m_state->setStyleSheet(
        m_stateColoured
            ? QStringLiteral("color: %1; font-weight: bold;").arg(styleColor(ColorRole::Warning))
            : QString());
}

} // namespace ss::ui
