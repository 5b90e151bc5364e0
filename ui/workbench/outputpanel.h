// SPDX-License-Identifier: GPL-3.0-or-later
// The right half of the workbench, twin of the InputPanel on the left: one TensorView per output
// of the result on show, the op's results that are not tensors above them, and the hover linking
// between the two halves (an output element under the mouse outlines its source in the inputs,
// an input element outlines every output element it went to).
#pragma once

#include <QWidget>

#include <cstdint>
#include <functional>
#include <vector>

class QLabel;
class QSplitter;
class QTimer;

namespace ss::ui {

class EngineClient;
class EvaluationController;
class InputPanel;
class TensorView;
class ViewColumn;

class OutputPanel : public QWidget
{
    Q_OBJECT
public:
    /// Links the hovers of `inputs` with the outputs of `evaluation`'s result on show; `engine`
    /// finds an input element's targets on a worker when that is too slow for the GUI thread.
    OutputPanel(EngineClient* engine, const EvaluationController* evaluation, InputPanel* inputs,
                QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;

    /// Puts output k's result into its view (its tensor, order, ...).
    using ViewSetUp = std::function<void(int output, TensorView* view)>;

    /// The views on show (output0View, output1View, ...): all `count` of the last showViews once
    /// isComplete().
    int viewCount() const { return int(m_views.size()); }
    TensorView* view(int k) const { return m_views[std::size_t(k)]; }
    const std::vector<TensorView*>& views() const { return m_views; }
    /// Shows `count` views, each set up by `setUp`: the views on show at once, and the views to
    /// be made or shown again at most kViewsAddedPerPass in each pass of the event loop, each set
    /// up as it comes (so no view ever shows an older result beside a newer one). Views past
    /// `count` are set aside at once.
    void showViews(int count, ViewSetUp setUp);
    /// Every view of the last showViews is on show (viewSettled follows when the last comes).
    bool isComplete() const { return viewCount() == m_wanted; }
    /// Views added in one pass of the event loop: making a view and showing it for the first time
    /// took 1.5-3 ms of the GUI thread each, and a result of 8 outputs made them in one call.
    static constexpr int kViewsAddedPerPass = 2;
    /// The results that are not tensors (to_expr's `expr`, encode's `encoding`), as HTML lines;
    /// hidden when there are none.
    void setExtras(const QStringList& lines);
    /// A bar shown above the views (the comparison with an actual output), hidden by its owner
    /// when it has nothing to say.
    void setBanner(QWidget* banner);
    /// Lines added to an output element's tooltip (a comparison's note), "" for none.
    void setElementNotes(std::function<QString(int output, std::int64_t flat)> notes)
    {
        m_notes = std::move(notes);
    }
    /// A new result is on show: the hovered input element's targets belong to the old one.
    void forgetHover() { m_hoverSlot = -1; }

signals:
    /// An output view has applied its background work.
    void viewSettled();
    /// The read positions in the cells on screen of an output view changed (scrolled, resized).
    void ordersOnScreenChanged();

private:
    /// Adds the next views wanted, up to kViewsAddedPerPass, and queues the rest.
    void addViews();
    /// Output k's view: one set aside, else a new one.
    TensorView* addView(int k);
    /// A new view for output `k`, linked to the hovers and tooltips.
    TensorView* makeView(int k);
    void outputHovered(int output, qint64 flat);
    void inputHovered(int slot, qint64 index);
    void showTargets(int slot, qint64 index, const std::vector<std::vector<std::int64_t>>& targets);
    QString inputToolTip(int slot, std::int64_t index) const;

    EngineClient* m_engine;
    const EvaluationController* m_evaluation;
    InputPanel* m_inputs;
    QLabel* m_extras;
    ViewColumn* m_column;
    QSplitter* m_splitter; ///< the column's
    std::vector<TensorView*> m_views;
    /// Views set aside (hidden, without a tensor) by showViews, the one for the lowest output
    /// last.
    std::vector<TensorView*> m_spares;
    int m_wanted = 0;   ///< the views the last showViews asked for
    ViewSetUp m_setUp;  ///< sets up the views still to come; empty when none are
    QTimer* m_addTimer; ///< adds the next views
    std::function<QString(int, std::int64_t)> m_notes;

    int m_hoverSlot = -1;
    qint64 m_hoverIndex = -1;
    std::vector<std::vector<std::int64_t>> m_hoverTargets;
};

} // namespace ss::ui
