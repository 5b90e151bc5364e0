// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/resultpresenter.h"

#include "ui/editors/inputpanel.h"
#include "ui/editors/opeditor.h"
#include "ui/model/explain.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/evaluationcontroller.h"
#include "ui/workbench/outputpanel.h"
#include "ui/workbench/statuspanel.h"

#include <QAction>

#include <algorithm>

namespace ss::ui {

ResultPresenter::ResultPresenter(EvaluationController* evaluation, InputPanel* inputs,
                                 OutputPanel* outputs, DecodeStepper* stepper, StatusPanel* status,
                                 QObject* parent)
    : QObject(parent), m_evaluation(evaluation), m_inputs(inputs), m_outputs(outputs),
      m_stepper(stepper), m_status(status)
{
    m_fitTimer.setSingleShot(true);
    m_fitTimer.setInterval(0);
    connect(&m_fitTimer, &QTimer::timeout, this, &ResultPresenter::fitColours);
    connect(inputs, &InputPanel::ordersOnScreenChanged, this, [this] { m_fitTimer.start(); });
    connect(outputs, &OutputPanel::ordersOnScreenChanged, this, [this] { m_fitTimer.start(); });
    connect(stepper, &DecodeStepper::currentStepChanged, this, &ResultPresenter::lightCurrentStep);
    // Output views that come passes after the hand-over get a lesson's faces once all are there.
    connect(outputs, &OutputPanel::viewSettled, this, [this] {
        if (m_facesDue && m_pendingFaces && m_outputs->isComplete())
            applyPendingFaces(m_pendingFaces->first);
    });
}

std::vector<TensorView*> ResultPresenter::allViews() const
{
    std::vector<TensorView*> views = m_outputs->views();
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        views.push_back(m_inputs->view(s));
    return views;
}

bool ResultPresenter::isSettled() const
{
    if (m_fitTimer.isActive() || !m_outputs->isComplete()) return false;
    const std::vector<TensorView*> views = allViews();
    return std::all_of(views.begin(), views.end(), [](TensorView* v) { return v->isSettled(); });
}

void ResultPresenter::setPendingFaces(const Workspace& workspace,
                                      const std::map<QString, std::pair<int, int>>& faces)
{
    m_pendingFaces = {workspace, faces};
    m_facesDue = false;
}

void ResultPresenter::keepFacesOnlyFor(const Workspace& workspace)
{
    if (m_pendingFaces && m_pendingFaces->first != workspace) {
        m_pendingFaces.reset();
        m_facesDue = false;
    }
}

void ResultPresenter::applyPendingFaces(const Workspace& workspace)
{
    if (!m_pendingFaces || m_pendingFaces->first != workspace) return;
    m_facesDue = !m_outputs->isComplete(); // then when the last output view has come
    if (m_facesDue) return;
    const auto faces = std::exchange(m_pendingFaces, std::nullopt)->second;
    // A lesson sets every view: the dimensions it names, the default (the last two) elsewhere.
    for (TensorView* view : allViews()) {
        const int rank = view->model()->tensor().rank();
        const auto it = faces.find(view->title());
        const std::pair<int, int> want =
            it != faces.end() ? it->second : std::pair(rank - 2, rank - 1);
        if (rank >= 2 && std::pair(view->faceRowDim(), view->faceColDim()) != want)
            view->setFaceDims(want.first, want.second);
    }
}

void ResultPresenter::forgetShown()
{
    // Another op's outputs, steps and selection would be read as this op's while it evaluates.
    m_evaluation->forgetShown();
    m_outputs->showViews(0, {});
    m_outputs->setExtras({});
    m_stepper->setSteps({}, {}, {});
    m_stepper->setStale(false);
    for (int s = 0; s < m_inputs->slotCount(); ++s) {
        m_inputs->view(s)->setReadOrder(nullptr);
        m_inputs->view(s)->setStale(QString());
    }
    m_status->update();
}

void ResultPresenter::show(const std::shared_ptr<const Evaluation>& eval)
{
    // Which result's outputs and which one's inputs: the stale/good policy (chooseShown).
    const ShownChoice choice = m_evaluation->show(eval);
    const OpDef* def = findOp(choice.inputs->op);
    // The input views keep the good result's selection: that is as old as its outputs.
    const bool stale = ss::ui::isStale(bool(choice.outputs), {choice.failed, false, m_unreadable});
    const QStringList names = def ? slotNames(*def, *choice.inputs) : QStringList();
    showInputs(*choice.inputs, choice.linked, names);
    showOutputs(choice.outputs, stale, names);
    m_opEditor->showEvaluation(*eval);
}

void ResultPresenter::showInputs(const Evaluation& from, bool linked, const QStringList& names)
{
    const std::vector<Tensor> tensors = from.slotTensors();
    for (int s = 0; s < m_inputs->slotCount(); ++s) {
        TensorView* view = m_inputs->view(s);
        if (s < int(tensors.size()) && s < names.size()) {
            view->setTensor(tensors[std::size_t(s)], names[s]);
            m_inputs->controls(s)->showMade(tensors[std::size_t(s)]);
        }
        if (linked)
            view->setReadOrder(from.readOrders[std::size_t(s)], from.readSummaries[std::size_t(s)],
                               from.lastRead);
        else
            view->setReadOrder(nullptr);
        view->setOutlined({});
    }
}

void ResultPresenter::showOutputs(const std::shared_ptr<const Evaluation>& from, bool stale,
                                  const QStringList& inputNames)
{
    const int outputs = from ? int(from->outputs.size()) : 0;
    if (!from) {
        m_outputs->showViews(0, {});
        m_outputs->setExtras({});
        m_stepper->setSteps({}, {}, {});
        return;
    }
    const QStringList outNames = outputNames(*findOp(from->op), *from);
    // The views still to come are greyed as the others are by then (applyStaleness).
    m_outputs->showViews(outputs, [this, from, outNames](int k, TensorView* view) {
        view->setTensor(from->outputs[std::size_t(k)], outNames[k]);
        // One colour scale for the whole op: an output cell has its source's colour.
        view->setReadOrder(from->outputOrders[std::size_t(k)],
                           from->outputSummaries[std::size_t(k)], from->lastRead);
        view->setOutlined({});
        view->setStale(m_staleNote);
    });
    QStringList extras;
    if (const QString text = extrasText(*from); !text.isEmpty()) extras << text;
    // Like the views, an old result says which request it belongs to.
    if (stale && !extras.isEmpty())
        extras << QStringLiteral("<i>(%1)</i>").arg(m_evaluation->failedNote().toHtmlEscaped());
    m_outputs->setExtras(extras);
    // The shapes of one result: a failed edit's new input (a rank-20 shape) does not go with the
    // last good output.
    const std::vector<Tensor> shownInputs = from->slotTensors();
    const Shape in = shownInputs.empty() ? Shape{} : shownInputs.front().shape();
    const Shape out = outputs > 0 ? from->outputs.front().shape() : Shape{};
    m_stepper->setSteps(from->steps, in, out, inputNames.value(0), outNames.value(0));
}

void ResultPresenter::applyStaleness()
{
    const QString note = m_staleNote = m_evaluation->updateStaleness();
    for (TensorView* view : m_outputs->views())
        view->setStale(note);
    // The input views are greyed only while they show that result's selection.
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        m_inputs->view(s)->setStale(m_evaluation->isLinked() ? note : QString());
    m_stepper->setStale(m_evaluation->isStale());
    m_status->update();
    lightCurrentStep();
}

void ResultPresenter::lightCurrentStep()
{
    const Step* step = m_stepper->current();
    // A stale step's character ranges and rows belong to an older text of the arguments.
    m_opEditor->lightStep(m_evaluation->isStale() ? nullptr : step, m_evaluation->shown().get());
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        m_inputs->view(s)->setFocusDims(
            step && s == 0 && m_evaluation->isLinked() ? step->inputDims : std::vector<int>{});
    for (int k = 0; k < m_outputs->viewCount(); ++k)
        m_outputs->view(k)->setFocusDims(step && k == 0 ? step->outputDims : std::vector<int>{});
}

void ResultPresenter::fitColours()
{
    m_fitTimer.stop();
    const std::vector<TensorView*> views = allViews();
    bool whole = !m_fitAction || !m_fitAction->isChecked();
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
    std::int64_t lastRead = -1;
    for (const TensorView* view : views) {
        if (view->readOrderScaleEnd() < 0) continue; // nothing selected in it
        lastRead = std::max(lastRead, view->readOrderScaleEnd());
        if (view->isHeatMap()) {
            whole = true;
        } else if (const auto shown = view->ordersOnScreen()) {
            range = range ? std::pair(std::min(range->first, shown->first),
                                      std::max(range->second, shown->second))
                          : *shown;
        }
    }
    if (whole || (range && range->first == 0 && range->second == lastRead)) range.reset();
    for (TensorView* view : views)
        view->setFittedScale(view->readOrderScaleEnd() >= 0 && !view->isHeatMap() ? range
                                                                                  : std::nullopt);
    emit fitted();
}

} // namespace ss::ui
