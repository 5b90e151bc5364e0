// SPDX-License-Identifier: GPL-3.0-or-later
// The result on screen: an evaluation's tensors, read orders and steps put into the input views,
// the output panel and the decode stepper, greyed while stale, coloured over one read-order scale
// (fitted to the cells on screen when View > Fit Colours says so), the current step lit, and a
// lesson's face dimensions applied once its own result arrives.
#pragma once

#include "ui/model/workspace.h"

#include <QObject>
#include <QTimer>

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QAction;

namespace ss::ui {

class DecodeStepper;
class EvaluationController;
class InputPanel;
class OpEditor;
class OutputPanel;
class StatusPanel;
class TensorView;
struct Evaluation;

class ResultPresenter : public QObject
{
    Q_OBJECT
public:
    ResultPresenter(EvaluationController* evaluation, InputPanel* inputs, OutputPanel* outputs,
                    DecodeStepper* stepper, StatusPanel* status, QObject* parent);

    /// The op's editor, which lights the steps' tokens and shows where an evaluation failed.
    void setOpEditor(OpEditor* editor) { m_opEditor = editor; }
    /// View > Fit Colours to the Screen.
    void setFitAction(const QAction* action) { m_fitAction = action; }
    /// An attribute field does not read: what is on show is stale whatever the evaluation says.
    void setUnreadable(bool unreadable) { m_unreadable = unreadable; }

    /// Shows `eval` (the newest evaluation or a framework's reading of it) as the stale/good
    /// policy decides.
    void show(const std::shared_ptr<const Evaluation>& eval);
    /// Greys what is not the result of what the editors show, and says so in the status bar.
    void applyStaleness();
    /// Clears the outputs, steps and selection of the result on show (another op's).
    void forgetShown();
    /// Lights what the decode stepper's current step talks about.
    void lightCurrentStep();
    /// Runs every view's colour ramp over the read positions on screen in all of them together,
    /// or over the whole op when that is off or a heat map is among them.
    void fitColours();
    /// The face dimensions of a lesson's views, applied when `workspace`'s result is shown.
    void setPendingFaces(const Workspace& workspace,
                         const std::map<QString, std::pair<int, int>>& faces);
    /// Another workspace came first: faces meant for a different one are forgotten.
    void keepFacesOnlyFor(const Workspace& workspace);
    /// Applies the pending faces if they are for `workspace`, to every view once all the output
    /// views are on show.
    void applyPendingFaces(const Workspace& workspace);
    /// The output views, then the input views.
    std::vector<TensorView*> allViews() const;
    /// Every output view is on show, no colour fit waits and no view has background work left.
    bool isSettled() const;

signals:
    /// The colours were fitted: the window may have settled.
    void fitted();

private:
    void showInputs(const Evaluation& from, bool linked, const QStringList& names);
    void showOutputs(const std::shared_ptr<const Evaluation>& from, bool stale,
                     const QStringList& inputNames);

    EvaluationController* m_evaluation;
    InputPanel* m_inputs;
    OutputPanel* m_outputs;
    DecodeStepper* m_stepper;
    StatusPanel* m_status;
    OpEditor* m_opEditor = nullptr;
    const QAction* m_fitAction = nullptr;
    bool m_unreadable = false;
    QString m_staleNote; ///< the output views' greying note, as applyStaleness last set it
    QTimer m_fitTimer;   ///< refits the colour ramp once the cells on screen have changed
    std::optional<std::pair<Workspace, std::map<QString, std::pair<int, int>>>> m_pendingFaces;
    bool m_facesDue = false; ///< the pending faces' result is shown; output views are to come
};

} // namespace ss::ui
