// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/outputpanel.h"

#include "ui/editors/inputpanel.h"
#include "ui/model/engineclient.h"
#include "ui/model/explain.h"
#include "ui/model/stagetrace.h"
#include "ui/views/tensorview.h"
#include "ui/views/viewcolumn.h"
#include "ui/workbench/evaluationcontroller.h"

#include <QLabel>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace ss::ui {

namespace {

/// Below this many output elements, an input hover finds its targets on the GUI thread.
constexpr std::int64_t kSyncTargetLimit = std::int64_t(1) << 20;

using TargetLists = std::vector<std::vector<std::int64_t>>;

/// Whether finding an input element's targets (a scan of every output's stored sources, or
/// nothing for sources worked out from the plan) is cheap enough for the GUI thread.
bool targetsAreCheap(const Evaluation& eval)
{
    return eval.sources.targetsCost() <= kSyncTargetLimit;
}

} // namespace

OutputPanel::OutputPanel(EngineClient* engine, const EvaluationController* evaluation,
                         InputPanel* inputs, QWidget* parent)
    : QWidget(parent), m_engine(engine), m_evaluation(evaluation), m_inputs(inputs),
      m_extras(new QLabel), m_column(new ViewColumn), m_splitter(m_column->splitter()),
      m_addTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("outputPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_extras->setObjectName(QStringLiteral("opExtras"));
    m_extras->setAccessibleName(tr("Result of the op"));
    m_extras->setWordWrap(true);
    m_extras->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_extras->hide();
    m_splitter->setObjectName(QStringLiteral("outputSplitter"));
    // Ops with many outputs (dynamic_partition) scroll rather than stretch the window.
    m_column->setObjectName(QStringLiteral("outputScroll"));
    m_column->setAccessibleName(tr("Output tensors"));
    connect(m_column, &ViewColumn::scrolled, this, &OutputPanel::ordersOnScreenChanged);
    layout->addWidget(m_extras);
    layout->addWidget(m_column, 1);

    connect(inputs, &InputPanel::elementHovered, this, &OutputPanel::inputHovered);
    inputs->setToolTipProvider(
        [this](int slot, std::int64_t index) { return inputToolTip(slot, index); });
    connect(engine, &EngineClient::targetsFound, this, &OutputPanel::showTargets);
    // The next views come from a timer, which fires after the calls queued before it have run: a
    // queued call would run in one pass with them (the new views' layouts, samplings, replots).
    m_addTimer->setObjectName(QStringLiteral("viewAddTimer"));
    m_addTimer->setSingleShot(true);
    m_addTimer->setInterval(0);
    connect(m_addTimer, &QTimer::timeout, this, [this] {
        addViews();
        if (isComplete()) emit viewSettled(); // the last came after the hand-over
    });
}

QSize OutputPanel::minimumSizeHint() const
{
    // Many outputs scroll down: the column keeps room for its first view whole (all of a single
    // output's view, as before it scrolled) and is as wide as its widest view needs.
    const QSize least = QWidget::minimumSizeHint(); // the extras, a banner and the column
    const QSize views = m_splitter->minimumSizeHint();
    const int first = m_views.empty() ? 0 : m_views.front()->minimumSizeHint().height();
    const int others = least.height() - m_column->minimumSizeHint().height();
    return {std::max(least.width(), views.width()), others + std::min(views.height(), first)};
}

void OutputPanel::setBanner(QWidget* banner)
{
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, banner);
}

void OutputPanel::setExtras(const QStringList& lines)
{
    m_extras->setText(lines.join(QStringLiteral("<br>")));
    m_extras->setVisible(!lines.isEmpty());
}

void OutputPanel::showViews(int count, ViewSetUp setUp)
{
    // A view no longer needed is set aside, without its tensor, and comes back when an output
    // needs it: making a view and deleting one took 1-2 ms each on the GUI thread, and an op
    // whose output count changes with its arguments (dynamic_partition, split) made or deleted
    // that many in the one call that hands a result over. It leaves the splitter, so that it
    // comes back into it as a new view would.
    while (int(m_views.size()) > count) {
        TensorView* view = m_views.back();
        m_views.pop_back();
        view->setParent(this); // hidden, out of the splitter
        view->setObjectName(QString());
        view->setReadOrder(nullptr);
        view->setTensor(Tensor(), QString()); // no tensor: nothing to draw, no buffer kept
        m_spares.push_back(view);
    }
    m_wanted = count;
    m_setUp = std::move(setUp);
    for (std::size_t k = 0; k < m_views.size(); ++k)
        m_setUp(int(k), m_views[k]);
    addViews();
}

void OutputPanel::addViews()
{
    for (int added = 0; added < kViewsAddedPerPass && viewCount() < m_wanted; ++added) {
        const int k = viewCount();
        m_setUp(k, addView(k));
    }
    // The column grows to hold the views added now, in this pass: its splitter had shared its
    // old height among them, squeezing the views already on show until the layout came, one pass
    // later (with the next pair added, a pass too late). Those views are back at their sizes
    // before their heat maps' queued replots run, which then have nothing to draw. The views
    // on show take the sizes they will keep while the others come.
    m_column->fitNow(m_wanted);
    stagetrace::mark("gui: output views added");
    if (!isComplete()) {
        m_addTimer->start();
        return;
    }
    m_setUp = nullptr; // holds the result: no longer needed here
}

TensorView* OutputPanel::addView(int k)
{
    // The view last set aside was made for this place: its hover reports output k.
    TensorView* view = m_spares.empty() ? makeView(k) : m_spares.back();
    if (!m_spares.empty()) m_spares.pop_back();
    view->setObjectName(QStringLiteral("output%1View").arg(k));
    view->setAccessibleName(tr("Output tensor %1").arg(k));
    m_splitter->addWidget(view);
    m_views.push_back(view);
    return view;
}

TensorView* OutputPanel::makeView(int k)
{
    auto* view = new TensorView;
    connect(view, &TensorView::elementHovered, this,
            [this, k](qint64 flat) { outputHovered(k, flat); });
    connect(view, &TensorView::settled, this, &OutputPanel::viewSettled);
    connect(view, &TensorView::ordersOnScreenChanged, this, &OutputPanel::ordersOnScreenChanged);
    view->setToolTipProvider([this, k](std::int64_t flat) -> QString {
        const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
        if (!shown) return {};
        const OpDef* def = findOp(shown->op);
        const QString text = def ? explainOutputElement(*def, *shown, k, flat) : QString();
        const QString note = m_notes ? m_notes(k, flat) : QString();
        return note.isEmpty() ? text : text + QStringLiteral("<br>") + note;
    });
    return view;
}

QString OutputPanel::inputToolTip(int slot, std::int64_t index) const
{
    const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
    if (!shown || !m_evaluation->isLinked()) return {};
    const OpDef* def = findOp(shown->op);
    if (!def) return {};
    // The hover's targets (a large op's arrive from a worker); otherwise only a scan that is
    // cheap enough for the GUI thread.
    const bool hovered = m_hoverSlot == slot && m_hoverIndex == index;
    return explainInputElement(*def, *shown, slot, index,
                               hovered                   ? m_hoverTargets
                               : targetsAreCheap(*shown) ? findTargets(*shown, slot, index)
                                                         : TargetLists{});
}

void OutputPanel::outputHovered(int output, qint64 flat)
{
    const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
    const std::int64_t source =
        shown && m_evaluation->isLinked() ? shown->sources.source(output, flat) : kNoSource;
    const bool fromInput = source >= 0 && sourceSlot(source) != kConstantSlot;
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        m_inputs->view(s)->setOutlined(fromInput && sourceSlot(source) == s
                                           ? std::vector<std::int64_t>{sourceIndex(source)}
                                           : std::vector<std::int64_t>{});
}

void OutputPanel::inputHovered(int slot, qint64 index)
{
    m_hoverSlot = slot;
    m_hoverIndex = index;
    m_hoverTargets.clear();
    const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
    if (!shown || !m_evaluation->isLinked() || index < 0) {
        for (TensorView* v : m_views)
            v->setOutlined({});
        return;
    }
    if (targetsAreCheap(*shown))
        showTargets(slot, index, findTargets(*shown, slot, index));
    else
        m_engine->lookupTargets(shown, slot, index);
}

void OutputPanel::showTargets(int slot, qint64 index, const TargetLists& targets)
{
    if (slot != m_hoverSlot || index != m_hoverIndex) return; // the mouse has moved on
    m_hoverTargets = targets;
    for (std::size_t k = 0; k < m_views.size(); ++k)
        m_views[k]->setOutlined(k < targets.size() ? targets[k] : std::vector<std::int64_t>{});
}

} // namespace ss::ui
