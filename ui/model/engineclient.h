// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's only way to the engine: every evaluation runs as a job on the engine's
// executor, and its result comes back to the GUI thread only if nothing was edited meanwhile.
#pragma once

#include "core/decode.h"
#include "core/error.h"
#include "core/executor.h"
#include "core/op.h"
#include "ui/model/jobtracker.h"
#include "ui/model/memorytrimpolicy.h"
#include "ui/model/readordermap.h"
#include "ui/model/sourcemap.h"
#include "ui/model/workspace.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QTimer;

namespace ss::ui {

/// Everything one evaluation produced, immutable once delivered. On failure the inputs that
/// could be made are still there, so the views can show them next to the last good result.
struct Evaluation
{
    quint64 generation = 0;
    std::string op;
    /// Whose reading of the op's spec this is ("PyTorch 1.13", the Frameworks panel's choice);
    /// empty for the op itself.
    QString framework;
    Attrs attrs; ///< the op's attributes as evaluated (what a stale view says it shows)
    bool ok = false;
    ErrorCode code = ErrorCode::Internal;
    QString message;
    std::optional<int> position; ///< parse_error: character offset in the expression

    std::vector<std::vector<Tensor>> inputs; ///< per op input, list inputs as several tensors
    std::vector<Tensor> outputs;
    /// Where each output element came from and where each input element went: worked out from
    /// the plan for affine plans and gathers, stored per element otherwise.
    SourceMap sources;
    /// Per input slot (list inputs expanded in place): each element's read position, counted
    /// over the whole op (outputs in order, elements in order), or -1.
    std::vector<ReadOrder> readOrders;
    std::vector<ReadOrderSummary> readSummaries;
    /// Per output element: the read order of its source (-1 for constants), for its colour.
    std::vector<ReadOrder> outputOrders;
    std::vector<ReadOrderSummary> outputSummaries;
    /// The op's last read position: the end of the one colour scale every view shares.
    std::int64_t lastRead = -1;
    std::vector<Step> steps;
    std::optional<StridedSliceDecode> decode;
    std::vector<std::pair<std::string, Attr>> extras;
    double opMs = 0;    ///< plan and execution, inputs in memory
    double totalMs = 0; ///< the whole job, making the inputs included

    /// The input tensors in slot order.
    std::vector<Tensor> slotTensors() const;
};

/// Output elements that came from input `slot`'s element `index`, per output, in output order.
std::vector<std::vector<std::int64_t>> findTargets(const Evaluation& eval, int slot,
                                                   std::int64_t index);

/// Fills `eval`'s read orders and summaries from its sources (on a worker, `executor`'s):
/// every evaluation's, and a framework's result shown in place of the op's (FrameworkComparer).
/// Sources from the plan give orders worked out from it, which cost no pass and no memory.
void computeReadOrders(const std::vector<Tensor>& inputs, Evaluation& eval, Executor& executor,
                       JobContext& ctx);

/// The bytes an evaluation holds: its tensors (not those over a mapped file, which are page
/// cache), sources and read orders.
std::int64_t evaluationBytes(const Evaluation& eval);
/// The buffer the next edit's output should find ready now that `newest` is shown: the bytes of
/// its largest output (the size the next output most likely has; 0 for one over a mapped file),
/// or 0 if `previous` (the evaluation shown before, null if none) has outputs that `newest` does
/// not share of at least half that size together, which are freed for it (an op of several
/// outputs, as dynamic_partition, may take one of them next and grow it), or if the output is
/// over 1 GiB.
std::int64_t bufferToPrepare(const Evaluation* previous, const Evaluation& newest);

/// Makes glibc keep freed memory for reuse: every edit allocates and frees buffers the size of
/// its tensors (outputs, sources, read orders), and by default blocks over 32 MB, and any block
/// of a worker thread's arena that does not fit its 64 MB heap, go back to the kernel. Getting
/// them back costs a page fault per 4 KB, about three times the cost of writing the memory
/// (measured: 34 ms instead of 11 ms to fill 80 MB), on every edit. Call it first thing in
/// main(), before any thread allocates; EngineClient gives the memory back after a quiet minute
/// if the next edit will not need it (MemoryTrimPolicy).
void keepFreedMemoryForReuse();

class EngineClient : public QObject
{
    Q_OBJECT
public:
    /// Runs its jobs on the workbench's one shared pool (WorkerPool).
    explicit EngineClient(QObject* parent = nullptr);
    ~EngineClient() override;

    /// Starts evaluating `workspace`; an older evaluation still running is cancelled and its
    /// result will never be delivered. Returns the generation the result will carry.
    quint64 evaluate(const Workspace& workspace);
    /// Drops whatever is running or pending (e.g. the workspace was just edited and a new
    /// evaluation is about to follow): no result older than this call is delivered.
    void invalidate();
    /// Stops the running evaluation; `cancelled` follows.
    void cancel();
    bool isBusy() const { return m_busy; }

    /// Looks up input element (slot, index)'s targets on a worker; `targetsFound` follows unless
    /// a newer lookup or evaluation came first.
    void lookupTargets(std::shared_ptr<const Evaluation> eval, int slot, std::int64_t index);

    /// Drops these references on a worker: freeing the buffers of a 10^7-element evaluation
    /// (hundreds of MB) takes long enough to stall the GUI thread.
    void releaseLater(std::vector<std::shared_ptr<const Evaluation>> evaluations);
    /// On a worker, a buffer for the next edit's output, if the result delivered last needs one
    /// (bufferToPrepare, prepareReusableBuffer). The window asks once it has settled: prepared at
    /// the delivery, its 40 MB of page faults at 10^7 took the cores and memory bandwidth from
    /// the result's own heat maps (the first edit of a size 2x the median edit). The next
    /// evaluate() stops it and its output takes the buffer as far as it was prepared.
    void prepareNextOutput();

    /// The limits every evaluation is budgeted by (each gets a fresh budget of them, as each
    /// CLI request does): by default the machine's (Limits::machineDefault()).
    Limits limits() const { return m_limits; }
    /// Sets them: slicescope's --max-bytes, and tests (a small budget, a fake /proc).
    void setLimits(const Limits& limits) { m_limits = limits; }

signals:
    void evaluated(std::shared_ptr<const ss::ui::Evaluation> result);
    void cancelled();
    void progress(double fraction);
    void busyChanged(bool busy);
    void targetsFound(int slot, qint64 index, std::vector<std::vector<std::int64_t>> targets);

private:
    void setBusy(bool busy);
    void rememberInputs(const Workspace& workspace, const Evaluation& eval);
    void trimMemory();
    /// What prepareNextOutput() will prepare after `eval`, the result just delivered.
    void noteNextOutput(const std::shared_ptr<const Evaluation>& eval);

    Limits m_limits;
    JobTracker* m_evaluations;
    JobTracker* m_lookups;
    /// From evaluate() until its result or cancellation is delivered (or invalidate()).
    bool m_busy = false;
    /// The generated inputs of the newest evaluation (tensors are shared, not copied).
    std::vector<std::pair<InputSource, Tensor>> m_inputCache;
    quint64 m_inputCacheGeneration = 0;
    /// After a quiet spell, the memory kept for reuse goes back to the system if the policy says.
    QTimer* m_trimTimer;
    MemoryTrimPolicy m_trimPolicy;
    /// The latest successful evaluation delivered: what the next one replaces on screen.
    std::weak_ptr<const Evaluation> m_previousResult;
    /// The bytes prepareNextOutput() makes ready, 0 for none.
    std::int64_t m_nextOutputBytes = 0;
    /// The job preparing that buffer, stopped by the next evaluate().
    std::shared_ptr<Job> m_preparation;
};

} // namespace ss::ui

Q_DECLARE_METATYPE(std::shared_ptr<const ss::ui::Evaluation>)
