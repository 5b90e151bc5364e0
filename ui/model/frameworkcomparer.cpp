// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/frameworkcomparer.h"

#include "core/frameworks/op_equivalents.h"
#include "ui/model/jobtracker.h"

#include <algorithm>
#include <chrono>

namespace ss::ui {

namespace {

// A framework's outcome as an evaluation of the base's op, so the output view, the input
// highlights, hover and the decode panel show it exactly as they show the op's own result.
std::shared_ptr<const Evaluation> evaluateOutcome(const Evaluation& base,
                                                  const FrameworkOutcome& outcome,
                                                  const Limits& limits, Executor& executor,
                                                  JobContext& ctx)
{
    auto eval = std::make_shared<Evaluation>();
    eval->generation = base.generation;
    eval->op = base.op;
    eval->attrs = base.attrs;
    eval->inputs = base.inputs;
    eval->framework = QString::fromUtf8(frameworkModel(outcome.framework).title());
    eval->steps = outcome.plan.steps;
    switch (outcome.kind) {
    case FrameworkOutcome::Kind::Result: {
        const std::vector<Tensor> inputs = base.slotTensors();
        const auto start = std::chrono::steady_clock::now();
        eval->outputs = executePlan(outcome.plan, inputs, executor, &ctx);
        // As for the op's own evaluation: from the plan where a map answers for it (a NumPy or
        // PyTorch integer array index is a gather), stored otherwise.
        if (auto fromPlan = SourceMap::fromPlan(outcome.plan, inputs, limits, &ctx)) {
            eval->sources = std::move(*fromPlan);
        } else {
            std::vector<SourceList> stored;
            for (int k = 0; k < int(outcome.plan.outputs.size()); ++k)
                stored.push_back(planSources(outcome.plan, k, executor, &ctx));
            eval->sources = SourceMap(std::move(stored));
        }
        computeReadOrders(inputs, *eval, executor, ctx);
        eval->opMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        eval->totalMs = eval->opMs;
        eval->decode = outcome.plan.decode;
        eval->ok = true;
        break;
    }
    case FrameworkOutcome::Kind::Error:
        eval->code = ErrorCode::InvalidArgument;
        eval->message = QStringLiteral("%1 raises %2: %3")
                            .arg(eval->framework, QString::fromStdString(outcome.errorType),
                                 QString::fromStdString(outcome.message));
        break;
    case FrameworkOutcome::Kind::NotModelled:
        eval->code = ErrorCode::Unimplemented;
        eval->message = QStringLiteral("%1: not modelled: %2")
                            .arg(eval->framework, QString::fromStdString(outcome.message));
        break;
    }
    return eval;
}

} // namespace

FrameworkComparer::FrameworkComparer(QObject* parent)
    : QObject(parent), m_jobs(new JobTracker(this))
{
    qRegisterMetaType<std::shared_ptr<const ss::ui::FrameworkReport>>();
}

bool FrameworkComparer::compares(const std::string& op)
{
    const OpDef* def = findOp(op);
    return def && def->indexSpec;
}

std::shared_ptr<FrameworkReport> FrameworkComparer::run(std::shared_ptr<const Evaluation> base,
                                                        Framework chosen, const Limits& limits,
                                                        Executor& executor, JobContext& ctx)
{
    auto report = std::make_shared<FrameworkReport>();
    report->base = base;
    report->chosen = chosen;
    try {
        const std::vector<Tensor> inputs = base->slotTensors();
        // A spec TensorFlow refuses is compared too (x[7] on size 5: JAX clamps it), as long
        // as the input was made.
        if (inputs.size() != 1 || !compares(base->op))
            throw OpError(ErrorCode::InvalidArgument,
                          "the frameworks are compared on a getitem or strided_slice spec and "
                          "its input");
        const IndexSpec spec = IndexSpec::fromAttrs(base->op, base->attrs);
        report->comparison = compareFrameworks(spec, inputs.front(), limits);
        ctx.throwIfCancelled();
        if (chosen != Framework::TensorFlow)
            report->chosenEvaluation = evaluateOutcome(
                *base, report->comparison.outcomes[std::size_t(chosen)], limits, executor, ctx);
    } catch (const OpError& e) {
        if (e.code() == ErrorCode::Cancelled) throw;
        report->comparison = {};
        report->chosenEvaluation = nullptr;
        report->error = QString::fromUtf8(e.what());
    } catch (const std::bad_alloc&) {
        report->comparison = {};
        report->chosenEvaluation = nullptr;
        report->error = QStringLiteral("not enough memory for this framework's result");
    }
    return report;
}

void FrameworkComparer::compare(std::shared_ptr<const Evaluation> base, Framework chosen,
                                const Limits& limits)
{
    Executor* pool = &m_jobs->pool(); // it outlives the jobs running on it
    m_jobs->start(
        [this, base, chosen, limits, pool](JobContext& ctx, const JobTracker::Delivery& to) {
            std::shared_ptr<const FrameworkReport> report = run(base, chosen, limits, *pool, ctx);
            to.post([this, report] { emit compared(report); });
        },
        // Kept by the tracker until the next job: a weak reference does not keep a large
        // evaluation alive there.
        [this, weakBase = std::weak_ptr<const Evaluation>(base), chosen](Job::State state,
                                                                         std::exception_ptr error) {
            if (state == Job::State::Cancelled) return;
            auto report = std::make_shared<FrameworkReport>();
            report->base = weakBase.lock();
            if (!report->base) return;
            report->chosen = chosen;
            try {
                if (error) std::rethrow_exception(error);
                report->error = QStringLiteral("the comparison stopped without a result");
            } catch (const std::exception& e) {
                report->error = QString::fromUtf8(e.what());
            } catch (...) {
                report->error = QStringLiteral("the comparison stopped without a result");
            }
            emit compared(report);
        });
}

void FrameworkComparer::invalidate()
{
    m_jobs->invalidate();
}

bool FrameworkComparer::isBusy() const
{
    return m_jobs->isBusy();
}

} // namespace ss::ui
