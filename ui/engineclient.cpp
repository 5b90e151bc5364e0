// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/engineclient.h"

#include "protocol/request.h"

#include <QPointer>

#include <algorithm>
#include <chrono>
#include <thread>

namespace ss::ui {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// How often the long loops below look at the cancel flag.
constexpr std::int64_t kCancelCheckInterval = std::int64_t(1) << 20;

// The first position in which each input element is read, scanning the outputs in order.
std::vector<ReadOrder>
computeReadOrders(const std::vector<Tensor>& tensors,
                  const std::vector<std::shared_ptr<const std::vector<std::int64_t>>>& sources,
                  JobContext& ctx)
{
    std::vector<std::shared_ptr<std::vector<std::int64_t>>> orders;
    for (const Tensor& t : tensors)
        orders.push_back(std::make_shared<std::vector<std::int64_t>>(std::size_t(t.size()), -1));
    std::vector<std::int64_t> next(tensors.size(), 0);
    for (const auto& outputSources : sources) {
        const std::int64_t n = std::int64_t(outputSources->size());
        const std::int64_t* src = outputSources->data();
        for (std::int64_t i = 0; i < n; ++i) {
            if ((i & (kCancelCheckInterval - 1)) == 0) ctx.throwIfCancelled();
            if (src[i] < 0) continue;
            const int slot = sourceSlot(src[i]);
            if (slot == kConstantSlot) continue;
            std::int64_t& order = (*orders[std::size_t(slot)])[std::size_t(sourceIndex(src[i]))];
            if (order < 0) order = next[std::size_t(slot)]++;
        }
    }
    return {orders.begin(), orders.end()};
}

// Each output element takes the read order of its source, so an output cell has the colour of
// the input cell it came from. Independent per element: split across the pool.
std::vector<ReadOrder>
computeOutputOrders(const std::vector<ReadOrder>& readOrders,
                    const std::vector<std::shared_ptr<const std::vector<std::int64_t>>>& sources,
                    Executor& executor, JobContext& ctx)
{
    std::vector<ReadOrder> orders;
    for (const auto& outputSources : sources) {
        auto order = std::make_shared<std::vector<std::int64_t>>(outputSources->size());
        const std::int64_t* src = outputSources->data();
        std::int64_t* out = order->data();
        executor.parallelFor(
            std::int64_t(outputSources->size()), std::int64_t(1) << 16,
            [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i) {
                    const std::int64_t s = src[i];
                    out[i] =
                        s >= 0 && sourceSlot(s) != kConstantSlot
                            ? (*readOrders[std::size_t(sourceSlot(s))])[std::size_t(sourceIndex(s))]
                            : -1;
                }
            },
            &ctx);
        orders.push_back(std::move(order));
    }
    return orders;
}

// Makes the inputs, plans, executes and traces: everything an evaluation shows, on a worker.
std::shared_ptr<Evaluation> runEvaluation(const Workspace& ws,
                                          const std::vector<std::vector<Tensor>>& cached,
                                          quint64 generation, Executor& executor, JobContext& ctx,
                                          const Limits& limits)
{
    auto eval = std::make_shared<Evaluation>();
    eval->generation = generation;
    eval->op = ws.op;
    const auto start = Clock::now();
    try {
        const OpDef* def = findOp(ws.op);
        if (!def) badRequest("unknown op '" + ws.op + "'");
        if (ws.inputs.size() != def->inputs.size())
            badRequest("op '" + def->name + "' takes " + std::to_string(def->inputs.size()) +
                       " inputs");
        for (std::size_t k = 0; k < ws.inputs.size(); ++k) {
            std::vector<Tensor> list;
            for (std::size_t j = 0; j < ws.inputs[k].size(); ++j) {
                const Tensor& ready = cached[k][j];
                if (ready.isValid()) {
                    list.push_back(ready);
                    continue;
                }
                try {
                    list.push_back(materialize(ws.inputs[k][j], limits));
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
        request.sources = true;
        RequestResult run = runRequest(request, limits, executor, &ctx);
        eval->outputs = std::move(run.outputs);
        eval->opMs = run.opMs;
        for (auto& sources : run.sources)
            eval->sources.push_back(
                std::make_shared<const std::vector<std::int64_t>>(std::move(sources)));
        eval->readOrders = computeReadOrders(run.inputs, eval->sources, ctx);
        eval->outputOrders = computeOutputOrders(eval->readOrders, eval->sources, executor, ctx);
        eval->steps = std::move(run.plan.steps);
        eval->decode = std::move(run.plan.decode);
        eval->extras = std::move(run.plan.extras);
        eval->ok = true;
    } catch (const OpError& e) {
        if (e.code() == ErrorCode::Cancelled) throw;
        eval->code = e.code();
        eval->message = QString::fromStdString(e.what());
        eval->position = e.position();
    } catch (const std::bad_alloc&) {
        eval->code = ErrorCode::ResourceExhausted;
        eval->message = QStringLiteral("not enough memory for this evaluation");
    } catch (const std::exception& e) {
        eval->code = ErrorCode::Internal;
        eval->message = QString::fromStdString(e.what());
    }
    if (!eval->ok) {
        eval->outputs.clear();
        eval->sources.clear();
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
    const std::int64_t wanted = packSource(slot, index);
    std::vector<std::vector<std::int64_t>> targets;
    for (const auto& sources : eval.sources) {
        std::vector<std::int64_t> hits;
        for (std::size_t i = 0; i < sources->size(); ++i)
            if ((*sources)[i] == wanted) hits.push_back(std::int64_t(i));
        targets.push_back(std::move(hits));
    }
    return targets;
}

EngineClient::EngineClient(const QString& consumer, QObject* parent)
    : QObject(parent), m_consumer(consumer.toStdString()), m_limits(Limits::machineDefault()),
      m_executor(std::make_unique<Executor>(int(std::max(2u, std::thread::hardware_concurrency()))))
{
    qRegisterMetaType<std::shared_ptr<const ss::ui::Evaluation>>();
    qRegisterMetaType<std::vector<std::vector<std::int64_t>>>();
}

EngineClient::~EngineClient()
{
    // Join the workers while this object is whole: a finishing job may still post to it.
    invalidate();
    m_executor.reset();
}

quint64 EngineClient::evaluate(const Workspace& workspace)
{
    const quint64 generation = ++m_generation;
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

    QPointer<EngineClient> self(this);
    Executor* executor = m_executor.get();
    const Limits limits = m_limits;
    auto work = [self, workspace, cached, generation, executor, limits](JobContext& ctx) {
        ctx.setProgressSink([self, generation](double fraction) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, fraction] {
                    if (self && self->m_generation == generation) emit self->progress(fraction);
                },
                Qt::QueuedConnection);
        });
        std::shared_ptr<const Evaluation> eval =
            runEvaluation(workspace, cached, generation, *executor, ctx, limits);
        QMetaObject::invokeMethod(
            self.data(),
            [self, eval, workspace] {
                if (!self) return;
                self->rememberInputs(workspace, *eval);
                if (self->m_generation != eval->generation)
                    return; // edited since: never show a stale result
                self->setBusy(false);
                emit self->evaluated(eval);
            },
            Qt::QueuedConnection);
    };
    auto done = [self, generation](Job& job) {
        if (job.state() != Job::State::Cancelled) return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation] {
                if (!self || self->m_generation != generation) return;
                self->setBusy(false);
                emit self->cancelled();
            },
            Qt::QueuedConnection);
    };
    m_job = m_executor->submit(m_consumer, std::move(work), std::move(done));
    setBusy(true);
    return generation;
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
    ++m_generation;
    ++m_lookupGeneration;
    if (m_job) m_job->context().cancel();
    m_job.reset();
    setBusy(false);
}

void EngineClient::cancel()
{
    if (m_job) m_job->context().cancel();
}

void EngineClient::lookupTargets(std::shared_ptr<const Evaluation> eval, int slot,
                                 std::int64_t index)
{
    const quint64 lookup = ++m_lookupGeneration;
    QPointer<EngineClient> self(this);
    m_executor->submit(m_consumer + "/targets", [self, eval, slot, index, lookup](JobContext&) {
        auto targets = findTargets(*eval, slot, index);
        QMetaObject::invokeMethod(
            self.data(),
            [self, slot, index, lookup, targets = std::move(targets)] {
                if (self && self->m_lookupGeneration == lookup)
                    emit self->targetsFound(slot, index, targets);
            },
            Qt::QueuedConnection);
    });
}

void EngineClient::releaseLater(std::vector<std::shared_ptr<const Evaluation>> evaluations)
{
    // The job's work function is dropped on the worker after it runs, and with it the last
    // references to the buffers.
    m_executor->submit({}, [evaluations = std::move(evaluations)](JobContext&) {});
}

void EngineClient::setBusy(bool busy)
{
    if (m_busy == busy) return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace ss::ui
