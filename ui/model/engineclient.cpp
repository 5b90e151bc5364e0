// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/engineclient.h"

#include "core/mapped_file.h"
#include "protocol/npy.h"
#include "protocol/request.h"
#include "ui/model/stagetrace.h"

#include <QTimer>

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <utility>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace ss::ui {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// How often the long loops below look at the cancel flag.
constexpr std::int64_t kCancelCheckInterval = std::int64_t(1) << 20;
// Blocks up to this size come from the heap, where freed ones stay for the next evaluation.
constexpr int kKeptBlockLimit = 1 << 30;
// Freed tensor buffers of 8 MiB and more kept for the next evaluation: how many, and their bytes.
constexpr int kKeptLargeBuffers = 16;
constexpr std::int64_t kKeptLargeBufferBytes = std::int64_t(2) << 30;
// How long memory kept for reuse waits for the next evaluation before it goes back.
constexpr int kTrimDelayMs = 60000;
// The largest output buffer prepared for the next edit: 10^8 float32 (400 MB) and the 10^9 int8
// file's outputs (954 MiB). Faulting them in takes up to seconds, but an edit that comes meanwhile
// takes the buffer as far as it got (acquireLarge) instead of faulting its own beside it. Without
// it, the two edits after a new tensor's first evaluation wrote fresh memory (10^8 at load 8:
// 600-660 faults and 126-1050 ms of cpu each; with it 49-214 faults and 98-148 ms, unless the edit
// came before the preparation got far). The buffer is the one the previous output leaves once edits
// alternate: the process keeps no more than it then does.
constexpr std::int64_t kMaxPreparedBytes = std::int64_t(1) << 30;

} // namespace

// Read orders, counted over the whole op: the first time an output element takes an input
// element as its source (outputs in order, elements in order) gives that input element its read
// position; each output element takes its source's position (-1 for constants), so an output
// cell has the colour of the input cell it came from. Both come from one pass over the sources,
// with the summaries the views would otherwise have to scan for on the GUI thread. (The pass is
// bound by memory traffic: a second, parallel pass for the outputs was slower.)
void computeReadOrders(const std::vector<Tensor>& inputs, Evaluation& eval, Executor& executor,
                       JobContext& ctx)
{
    // A map's orders are worked out when asked (an index plan's input order was numbered when
    // the plan was made): nothing else to do.
    auto fromMap = [&eval](const auto& map) {
        for (int s = 0; s < map.slotCount(); ++s) {
            eval.readOrders.push_back(map.inputOrder(s));
            eval.readSummaries.push_back(map.inputSummary(s));
        }
        for (int k = 0; k < map.outputCount(); ++k) {
            eval.outputOrders.push_back(map.outputOrder(k));
            eval.outputSummaries.push_back(map.outputSummary(k));
        }
        eval.lastRead = map.lastRead();
    };
    if (const auto& plan = eval.sources.plan()) return fromMap(*plan);
    if (const auto& rows = eval.sources.rowsPlan()) return fromMap(*rows);
    if (const auto& scatter = eval.sources.scatterPlan()) return fromMap(*scatter);
    if (const auto& index = eval.sources.indexPlan()) return fromMap(*index);
    const auto& stored = eval.sources.stored();
    std::int64_t outputElements = 0;
    for (const auto& outputSources : stored)
        outputElements += std::int64_t(outputSources->size());
    checkStoredPositionLimit(outputElements);
    std::vector<StoredPositions> orders;
    std::vector<StoredPosition*> slotOrders;
    for (const Tensor& t : inputs) {
        // "Not read" until the pass below reads it: filled on every worker (the numbering itself
        // is sequential).
        orders.emplace_back(std::size_t(t.size()));
        StoredPosition* order = orders.back().data();
        executor.parallelFor(
            t.size(), kCancelCheckInterval,
            [order](std::int64_t begin, std::int64_t end) {
                std::fill(order + begin, order + end, StoredPosition(-1));
            },
            &ctx);
        slotOrders.push_back(order);
    }
    std::vector<ReadOrderSummary> readSummaries(inputs.size());
    std::int64_t next = 0;
    for (const auto& outputSources : stored) {
        const std::int64_t n = std::int64_t(outputSources->size());
        const std::int64_t* src = outputSources->data();
        StoredPositions outputOrder(static_cast<std::size_t>(n));
        StoredPosition* out = outputOrder.data();
        ReadOrderSummary summary;
        std::int64_t lowest = INT64_MAX;
        for (std::int64_t a = 0; a < n; a += kCancelCheckInterval) {
            ctx.throwIfCancelled();
            const std::int64_t b = std::min(n, a + kCancelCheckInterval);
            for (std::int64_t i = a; i < b; ++i) {
                const std::int64_t s = src[i];
                if (s < 0 || sourceSlot(s) == kConstantSlot) {
                    out[i] = -1;
                    continue;
                }
                const auto slot = std::size_t(sourceSlot(s));
                StoredPosition& order = slotOrders[slot][sourceIndex(s)];
                if (order < 0) {
                    order = StoredPosition(next++);
                    ReadOrderSummary& read = readSummaries[slot];
                    if (read.selected++ == 0) read.first = sourceIndex(s);
                    read.last = order;
                }
                out[i] = order;
                // An element read again by a later output keeps its earlier, smaller position:
                // the lowest position, first met, is the output's first element.
                ++summary.selected;
                summary.last = std::max<std::int64_t>(summary.last, order);
                if (order < lowest) {
                    lowest = order;
                    summary.first = i;
                }
            }
        }
        eval.outputOrders.push_back(storedReadOrder(std::move(outputOrder)));
        eval.outputSummaries.push_back(summary);
    }
    for (StoredPositions& order : orders)
        eval.readOrders.push_back(storedReadOrder(std::move(order)));
    eval.readSummaries = std::move(readSummaries);
    eval.lastRead = next - 1;
}

namespace {

// The inputs the evaluation is about to generate (fills not made by an earlier evaluation), as
// the protocol describes them, so that they are sized together before any is made.
std::vector<std::vector<TensorSpec>> generatedInputs(const Workspace& ws,
                                                     const std::vector<std::vector<Tensor>>& cached)
{
    std::vector<std::vector<TensorSpec>> specs(ws.inputs.size());
    for (std::size_t k = 0; k < ws.inputs.size(); ++k)
        for (std::size_t j = 0; j < ws.inputs[k].size(); ++j) {
            const InputSource& source = ws.inputs[k][j];
            TensorSpec& spec = specs[k].emplace_back();
            const bool generated = source.fill == FillKind::Arange ||
                                   source.fill == FillKind::Zeros ||
                                   source.fill == FillKind::Ones || source.fill == FillKind::Random;
            if (!generated || (k < cached.size() && j < cached[k].size() && cached[k][j].isValid()))
                continue; // a Data spec: nothing to make
            spec.kind = TensorSpec::Kind::Fill;
            spec.dtype = source.dtype.value_or(DType::Int32);
            spec.shape = source.shape;
        }
    return specs;
}

// The read orders computeReadOrders stores for an op whose sources are stored: one position per
// input element and one per output element.
void chargeStoredReadOrders(const OpPlan& plan, const std::vector<Tensor>& inputs,
                            const Limits& limits)
{
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    auto add = [](std::int64_t a, std::int64_t b) { return a > kMax - b ? kMax : a + b; };
    std::int64_t inputElements = 0, outputElements = 0;
    for (const Tensor& t : inputs)
        inputElements = add(inputElements, t.size());
    for (const OutputPlan& out : plan.outputs) {
        const auto n = checkedNumElements(out.shape);
        outputElements = add(outputElements, n ? *n : kMax);
    }
    checkStoredPositionLimit(outputElements);
    const std::int64_t elements = add(inputElements, outputElements);
    const std::int64_t size = std::int64_t(sizeof(StoredPosition));
    limits.charge(elements > kMax / size ? kMax : elements * size,
                  "the read orders the workbench keeps for " + std::to_string(inputElements) +
                      " input and " + std::to_string(outputElements) + " output elements (" +
                      std::to_string(size) + " bytes each)");
}

// The op has read its inputs: a big mapped .npy input's pages, mapped as the op read them, leave
// the process's resident memory (a 10^9-element int8 file is 1 GB of it). They stay in the page
// cache, so the next edit's op maps them again at a minor fault per page (about 20 ms per GB),
// and the views only when they sample the input's values again. Small files are not worth even
// that.
void unmapReadInputs(const std::vector<std::vector<Tensor>>& inputs)
{
    for (const auto& list : inputs)
        for (const Tensor& t : list) {
            const std::int64_t bytes = t.size() * std::int64_t(dtypeSize(t.dtype()));
            if (bytes >= MemoryTrimPolicy::kMinSurplusBytes) unmapResidentPages(t.raw(), bytes);
        }
}

// Makes the inputs, plans, executes and traces: everything an evaluation shows, on a worker.
std::shared_ptr<Evaluation> runEvaluation(const Workspace& ws,
                                          const std::vector<std::vector<Tensor>>& cached,
                                          quint64 generation, Executor& executor, JobContext& ctx,
                                          const Limits& givenLimits)
{
    auto eval = std::make_shared<Evaluation>();
    eval->generation = generation;
    eval->op = ws.op;
    eval->attrs = ws.attrs;
    const auto start = Clock::now();
    try {
        const OpDef* def = findOp(ws.op);
        if (!def) badRequest("unknown op '" + ws.op + "'");
        if (ws.inputs.size() != def->inputs.size())
            badRequest("op '" + def->name + "' takes " + std::to_string(def->inputs.size()) +
                       " inputs");
        // One budget for the whole evaluation, as the CLI has one per request: the inputs made
        // here, the plan, the outputs, the sources and the read orders are all charged to it
        // before they are allocated.
        const Limits limits = givenLimits.forRequest();
        requireGeneratedInputs(*def, generatedInputs(ws, cached), limits);
        for (std::size_t k = 0; k < ws.inputs.size(); ++k) {
            std::vector<Tensor> list;
            for (std::size_t j = 0; j < ws.inputs[k].size(); ++j) {
                const Tensor& ready = cached[k][j];
                if (ready.isValid()) {
                    list.push_back(ready);
                    continue;
                }
                try {
                    list.push_back(materialize(ws.inputs[k][j], limits, &executor));
                } catch (const OpError& e) {
                    std::string name = def->inputs[k].name;
                    if (def->inputs[k].isList) name += "[" + std::to_string(j) + "]";
                    throw OpError(e.code(), "input '" + name + "': " + e.what());
                }
                ctx.throwIfCancelled();
            }
            eval->inputs.push_back(std::move(list));
        }

        Request request;
        request.op = def;
        request.inputs = eval->inputs;
        request.attrs = ws.attrs;
        request.framework = ws.framework;
        request.sources = true;
        // A framework's reading is its own result, and its own error: the output view is titled
        // by it, and a failure does not leave TensorFlow's last result on show in its place.
        if (ws.framework != Framework::TensorFlow)
            eval->framework = QString::fromUtf8(frameworkModel(ws.framework).title());
        // A plan that a map answers for (affine, a gather, rows picked in order) gives its
        // sources itself: none are made. A gather keeps its input's read order, numbered here.
        std::optional<SourceMap> fromPlan;
        request.sourcesWanted = [&fromPlan, &limits, &ctx](const OpPlan& plan,
                                                           const std::vector<Tensor>& inputs) {
            stagetrace::mark("worker: planned");
            fromPlan = SourceMap::fromPlan(plan, inputs, limits, &ctx);
            stagetrace::mark("worker: provenance from the plan");
            if (fromPlan) return false;
            // Stored sources come with stored read orders (computeReadOrders): charged now,
            // before the outputs are made, so a request too big for them is refused first.
            chargeStoredReadOrders(plan, inputs, limits);
            return true;
        };
        request.inMemory = true; // no response text: "emit" is no remedy the GUI can offer
        stagetrace::mark("worker: inputs ready");
        RequestResult run = runRequest(request, limits, executor, &ctx);
        stagetrace::mark("worker: op done");
        unmapReadInputs(eval->inputs);
        eval->outputs = std::move(run.outputs);
        eval->opMs = run.opMs;
        eval->sources = fromPlan ? std::move(*fromPlan) : SourceMap(std::move(run.sources));
        computeReadOrders(run.inputs, *eval, executor, ctx);
        stagetrace::mark("worker: read orders done");
        eval->steps = std::move(run.plan.steps);
        eval->decode = std::move(run.plan.decode);
        eval->extras = std::move(run.plan.extras);
        eval->ok = true;
    } catch (const OpError& e) {
        if (e.code() == ErrorCode::Cancelled) throw;
        eval->code = e.code();
        eval->message = QString::fromStdString(e.what());
        eval->position = e.position();
        // A half-typed subscript is the expression's error, not the framework's: the last good
        // result stays on show, greyed, as while typing for TensorFlow.
        if (e.code() == ErrorCode::ParseError) eval->framework.clear();
    } catch (const std::bad_alloc&) {
        eval->code = ErrorCode::ResourceExhausted;
        eval->message = QStringLiteral("not enough memory for this evaluation");
    } catch (const std::exception& e) {
        eval->code = ErrorCode::Internal;
        eval->message = QString::fromStdString(e.what());
    }
    if (!eval->ok) {
        eval->outputs.clear();
        eval->sources = {};
    }
    eval->totalMs = msSince(start);
    return eval;
}

} // namespace

std::vector<Tensor> Evaluation::slotTensors() const
{
    std::vector<Tensor> tensors;
    for (const auto& list : inputs)
        tensors.insert(tensors.end(), list.begin(), list.end());
    return tensors;
}

std::vector<std::vector<std::int64_t>> findTargets(const Evaluation& eval, int slot,
                                                   std::int64_t index)
{
    return eval.sources.targets(slot, index);
}

namespace {

// The bytes a tensor holds of the process's own memory.
std::int64_t tensorBytes(const Tensor& t)
{
    // A mapped .npy file (or an output sharing its buffer) is page cache, not the heap's.
    if (t.raw() && isMappedFile(t.raw())) return 0;
    return t.size() * std::int64_t(t.dtype() == DType::String
                                       ? sizeof(std::string)
                                       : std::size_t(dtypeSize(t.dtype())));
}

} // namespace

std::int64_t bufferToPrepare(const Evaluation* previous, const Evaluation& newest)
{
    std::int64_t bytes = 0; // strings keep their characters elsewhere: no buffer of the pool
    for (const Tensor& t : newest.outputs)
        if (t.dtype() != DType::String) bytes = std::max(bytes, tensorBytes(t));
    if (bytes > kMaxPreparedBytes) return 0;
    if (!previous) return bytes;
    const std::vector<Tensor> inputs = newest.slotTensors();
    auto kept = [&](const void* buffer) {
        for (const auto* list : {&newest.outputs, &inputs})
            for (const Tensor& t : *list)
                if (t.raw() == buffer) return true;
        return false;
    };
    std::int64_t freed = 0; // the previous outputs' buffers that go back to the pool
    for (const Tensor& t : previous->outputs)
        if (!kept(t.raw())) freed += tensorBytes(t);
    return freed >= bytes / 2 ? 0 : bytes;
}

std::int64_t evaluationBytes(const Evaluation& eval)
{
    std::int64_t bytes = 0;
    for (const auto& list : eval.inputs)
        for (const Tensor& t : list)
            bytes += tensorBytes(t);
    for (const Tensor& t : eval.outputs)
        bytes += tensorBytes(t);
    bytes += eval.sources.bytes();
    for (const auto* orders : {&eval.readOrders, &eval.outputOrders})
        for (const ReadOrder& order : *orders)
            if (order) bytes += order->bytes();
    return bytes;
}

void keepFreedMemoryForReuse()
{
#ifdef __GLIBC__
    // One arena: a worker thread's own arena cannot hold a block over 64 MB, so a 10^7-element
    // buffer would always be mapped afresh. Mapping only past 1 GB.
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, kKeptBlockLimit);
    // Never trimming on free (-1): with a threshold, a 10^8-element edit freed over 1 GB into the
    // heap's top, and free() gave it back to the kernel holding the one arena's lock for
    // 0.5-0.9 s. The GUI thread stalled on its next malloc, and the next edit faulted it all in
    // again. Memory goes back only through EngineClient's MemoryTrimPolicy.
    mallopt(M_TRIM_THRESHOLD, -1);
#endif
    // Tensors' large buffers are kept by their own pool, outside the heap. More of them than a
    // script needs: an op may have several big outputs, and at 10^8 elements one is 400 MB.
    keepPooledBuffers(kKeptLargeBuffers, kKeptLargeBufferBytes);
}

EngineClient::EngineClient(QObject* parent)
    : QObject(parent), m_limits(Limits::machineDefault()), m_evaluations(new JobTracker(this)),
      m_lookups(new JobTracker(this)), m_trimTimer(new QTimer(this))
{
    qRegisterMetaType<std::shared_ptr<const ss::ui::Evaluation>>();
    qRegisterMetaType<std::vector<std::vector<std::int64_t>>>();
    // .npy inputs (File > Open, a workspace's `npy` inputs, the command line's file) are mapped
    // read-only, not copied: every evaluation checks them after its op (runRequest), so a file
    // changed or truncated under the app is an error in the window, and an edit copies the
    // tensor first (withElement).
    setNpyMapping(true);
    m_trimTimer->setSingleShot(true);
    m_trimTimer->setInterval(kTrimDelayMs);
    connect(m_trimTimer, &QTimer::timeout, this, &EngineClient::trimMemory);
}

EngineClient::~EngineClient()
{
    // The pool is shared and outlives this client: its running jobs are cancelled, and the
    // trackers drop what they still deliver.
    m_evaluations->invalidate();
    m_lookups->invalidate();
}

quint64 EngineClient::evaluate(const Workspace& workspace)
{
    stagetrace::mark("gui: evaluate");
    // A buffer still being prepared for this evaluation's output stops where it is, so that the
    // preparation holds no worker the evaluation could use; the output takes it as it is.
    if (m_preparation) std::exchange(m_preparation, nullptr)->context().cancel();
    // Inputs made by an earlier evaluation are reused when their description is unchanged, so
    // editing the expression never regenerates a 10^7-element input.
    std::vector<std::vector<Tensor>> cached;
    for (const auto& list : workspace.inputs) {
        std::vector<Tensor> ready;
        for (const InputSource& source : list) {
            Tensor t;
            if (source.fill == FillKind::Data) {
                t = source.data;
            } else {
                for (const auto& [known, tensor] : m_inputCache)
                    if (known == source) t = tensor;
            }
            ready.push_back(t);
        }
        cached.push_back(std::move(ready));
    }

    const Limits limits = m_limits;
    const quint64 generation = m_evaluations->generation() + 1;
    Executor* pool = &m_evaluations->pool(); // it outlives the jobs running on it
    // `this` is only used in what is delivered, which runs on this thread while the client lives.
    auto work = [this, workspace, cached, generation, limits,
                 pool](JobContext& ctx, const JobTracker::Delivery& to) {
        stagetrace::mark("worker: evaluation starts");
        ctx.setProgressSink([this, to](double fraction) {
            to.post([this, fraction] { emit progress(fraction); });
        });
        std::shared_ptr<const Evaluation> eval =
            runEvaluation(workspace, cached, generation, *pool, ctx, limits);
        stagetrace::mark("worker: evaluation ends");
        to.postAnyway([this, eval, workspace] { rememberInputs(workspace, *eval); });
        to.post([this, eval] {
            stagetrace::mark("gui: result delivered");
            setBusy(false);
            m_trimPolicy.evaluated(evaluationBytes(*eval));
            noteNextOutput(eval);
            m_trimTimer->start();
            emit evaluated(eval);
            stagetrace::mark("gui: result shown");
        });
    };
    const quint64 started = m_evaluations->start(
        std::move(work), [this, op = workspace.op](Job::State state, std::exception_ptr error) {
            setBusy(false);
            if (state == Job::State::Cancelled) {
                emit cancelled();
                return;
            }
            // runEvaluation answers every error itself; whatever still escaped is shown as one.
            auto failed = std::make_shared<Evaluation>();
            failed->generation = m_evaluations->generation();
            failed->op = op;
            try {
                if (error) std::rethrow_exception(error);
                failed->message = QStringLiteral("the evaluation stopped without a result");
            } catch (const std::exception& e) {
                failed->message = QString::fromUtf8(e.what());
            } catch (...) {
                failed->message = QStringLiteral("the evaluation stopped without a result");
            }
            emit evaluated(failed);
        });
    Q_ASSERT(started == generation);
    setBusy(true);
    return started;
}

void EngineClient::rememberInputs(const Workspace& workspace, const Evaluation& eval)
{
    // Only the newest evaluation's inputs are kept: enough for the common edit (the expression,
    // the input unchanged), and never more memory than one workspace's tensors.
    if (eval.generation < m_inputCacheGeneration) return;
    m_inputCacheGeneration = eval.generation;
    m_inputCache.clear();
    for (std::size_t k = 0; k < eval.inputs.size() && k < workspace.inputs.size(); ++k)
        for (std::size_t j = 0; j < eval.inputs[k].size() && j < workspace.inputs[k].size(); ++j)
            if (workspace.inputs[k][j].fill != FillKind::Data)
                m_inputCache.emplace_back(workspace.inputs[k][j], eval.inputs[k][j]);
}

void EngineClient::invalidate()
{
    m_evaluations->invalidate();
    m_lookups->invalidate();
    setBusy(false);
}

void EngineClient::cancel()
{
    m_evaluations->cancel();
}

void EngineClient::lookupTargets(std::shared_ptr<const Evaluation> eval, int slot,
                                 std::int64_t index)
{
    m_lookups->start([this, eval, slot, index](JobContext&, const JobTracker::Delivery& to) {
        auto targets = findTargets(*eval, slot, index);
        to.post([this, slot, index, targets = std::move(targets)] {
            emit targetsFound(slot, index, targets);
        });
    });
}

void EngineClient::releaseLater(std::vector<std::shared_ptr<const Evaluation>> evaluations)
{
    // The job's work function is dropped on the worker after it runs, and with it the last
    // references to the buffers.
    m_evaluations->pool().submit({}, [evaluations = std::move(evaluations)](JobContext&) mutable {
        stagetrace::mark("worker: release starts");
        evaluations.clear();
        stagetrace::mark("worker: release ends");
    });
}

void EngineClient::noteNextOutput(const std::shared_ptr<const Evaluation>& eval)
{
    // The next edit's output, about the size of this one, gets a buffer whose pages are in
    // memory: the first edits after a new tensor (its first evaluation sharing the input's
    // buffer, so nothing is freed for the next output) would otherwise write fresh memory, 2-5x
    // the median edit at 10^7 elements. Once edits alternate, the previous output is that buffer.
    const std::shared_ptr<const Evaluation> previous = m_previousResult.lock();
    m_nextOutputBytes = bufferToPrepare(previous.get(), *eval);
    if (eval->ok) m_previousResult = eval;
}

void EngineClient::prepareNextOutput()
{
    const std::int64_t bytes = std::exchange(m_nextOutputBytes, 0);
    if (bytes == 0) return;
    m_preparation = m_evaluations->pool().submit({}, [bytes](JobContext& ctx) {
        prepareReusableBuffer(bytes, [&ctx] { return ctx.isCancelled(); });
        stagetrace::mark("worker: next output's buffer ready");
    });
}

void EngineClient::trimMemory()
{
    if (!m_trimPolicy.trimAfterQuietSpell()) return;
    // Unmapping hundreds of MB takes a while: on a worker, like any other slow work.
    m_evaluations->pool().submit({}, [](JobContext&) {
        releasePooledBuffers();
#ifdef __GLIBC__
        malloc_trim(0);
#endif
    });
}

void EngineClient::setBusy(bool busy)
{
    if (m_busy == busy) return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace ss::ui
