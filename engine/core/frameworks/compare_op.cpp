// SPDX-License-Identifier: GPL-3.0-or-later
// compare: one spec, every framework's outcome, and which differ from TensorFlow's and why.
// Frameworks that read the same elements share one output, so a spec that all six read alike is
// executed once. The op belongs to the frameworks library, which sits above the core: the core's
// registry cannot name it, so it registers itself (core/op_registry.h) when a program links this
// library (its CMake target asks the linker for slicescope_frameworks_ops).
#include "core/error.h"
#include "core/frameworks/framework_comparison.h"
#include "core/op.h"
#include "core/op_registry.h"
#include "core/ops/common.h"

namespace ss {

using namespace ops;

namespace {

IndexSpec specFromCall(const OpCall& call)
{
    const bool raw = call.has("begin") || call.has("end") || call.has("strides") ||
                     call.has("begin_mask") || call.has("end_mask") || call.has("ellipsis_mask") ||
                     call.has("new_axis_mask") || call.has("shrink_axis_mask");
    if (call.has("expr")) {
        if (raw)
            badRequest("op 'compare' takes either 'expr' or the strided_slice attributes, not "
                       "both");
        const Attr* expr = call.attr("expr");
        if (!expr->isString()) badRequest("op 'compare' needs attribute 'expr', a string");
        return IndexSpec::fromExpression(expr->toString());
    }
    if (!raw)
        badRequest("op 'compare' needs 'expr' (a subscript) or 'begin' and 'end' (raw "
                   "strided_slice arguments)");
    // The raw arguments are read exactly as strided_slice reads them, by its own reader.
    const SparseSpec s = sparseSpecFromCall(call);
    return IndexSpec::fromStridedSlice(s);
}

OpPlan compare(const OpCall& call)
{
    const IndexSpec spec = specFromCall(call);
    const Tensor& input = call.input("input");
    FrameworkComparison c = compareFrameworks(spec, input, call.limits());
    OpPlan plan;
    for (int k : c.distinct)
        plan.outputs.push_back(c.outcomes[std::size_t(k)].plan.outputs[0]);
    Attr::List frameworks;
    Attr::List differ;
    for (std::size_t i = 0; i < c.outcomes.size(); ++i) {
        const FrameworkOutcome& o = c.outcomes[i];
        const FrameworkModel& m = frameworkModel(o.framework);
        Attr::Map entry{{"framework", std::string(m.key())}, {"title", std::string(m.title())}};
        switch (o.kind) {
        case FrameworkOutcome::Kind::Result: {
            const OutputPlan& out = o.plan.outputs[0];
            entry.emplace_back("outcome", "result");
            entry.emplace_back("output", std::int64_t(c.resultIndex[i]));
            entry.emplace_back("dtype", std::string(dtypeName(out.dtype)));
            entry.emplace_back("shape", Attr::ints(out.shape));
            break;
        }
        case FrameworkOutcome::Kind::Error:
            entry.emplace_back("outcome", "error");
            entry.emplace_back("error", Attr::Map{{"type", o.errorType}, {"message", o.message}});
            break;
        case FrameworkOutcome::Kind::NotModelled:
            entry.emplace_back("outcome", "not_modelled");
            entry.emplace_back("message", o.message);
            break;
        }
        entry.emplace_back("differs", bool(c.differs[i]));
        if (c.differs[i]) {
            entry.emplace_back("reason", c.reasons[i]);
            differ.push_back(std::string(m.key()));
        }
        frameworks.push_back(std::move(entry));
        // The trace walks the frameworks in turn: a summary, then the framework's own steps.
        // Output dimensions are lit only for the framework whose result is output 0.
        plan.steps.push_back({std::string(m.title()),
                              outcomeSummary(o) + (c.differs[i] ? ". Differs: " + c.reasons[i]
                                                                : ". Same as TensorFlow."),
                              {}});
        for (Step step : o.plan.steps) {
            step.title = std::string(m.title()) + ": " + step.title;
            if (c.resultIndex[i] != 0) step.outputDims.clear();
            plan.steps.push_back(std::move(step));
        }
    }
    plan.extras.emplace_back("frameworks", std::move(frameworks));
    plan.extras.emplace_back("differ", std::move(differ));
    return plan;
}

std::vector<OpDef> compareOps()
{
    return {
        {.name = "compare",
         .summary =
             "one spec in NumPy, TensorFlow, PyTorch, JAX, ONNX and PaddlePaddle: each outcome, "
             "and which differ from TensorFlow's and why",
         .inputs = {{"input"}},
         .attrs = {{"expr", "(or the strided_slice attributes)"},
                   {"begin", "(with end, instead of expr)"},
                   {"end", "(with begin, instead of expr)"},
                   {"strides", "all 1"},
                   {"begin_mask", "0"},
                   {"end_mask", "0"},
                   {"ellipsis_mask", "0"},
                   {"new_axis_mask", "0"},
                   {"shrink_axis_mask", "0"}},
         .outputs = "one per distinct result (the response's \"frameworks\" says whose)",
         .plan = compare,
         .notation = Notation::Subscript,
         // The first row of the comparison table: PyTorch refuses the negative step, Paddle
         // stops one short of TensorFlow and NumPy.
         .example = {{{exampleFill(DType::Int32, {5})}}, {{"expr", Attr("x[4:-6:-1]")}}},
         .family = OpFamily::Slicing,
         .equivalents = {
             noEquivalent(Framework::NumPy,
                          "compare runs one spec in every framework; in NumPy alone it is that "
                          "framework's subscript (the framework models write it)."),
             noEquivalent(Framework::TensorFlow,
                          "compare runs one spec in every framework; in TensorFlow alone it is "
                          "that framework's subscript (the framework models write it)."),
             noEquivalent(Framework::PyTorch,
                          "compare runs one spec in every framework; in PyTorch alone it is that "
                          "framework's subscript (the framework models write it)."),
             noEquivalent(Framework::Jax,
                          "compare runs one spec in every framework; in JAX alone it is that "
                          "framework's subscript (the framework models write it)."),
             noEquivalent(Framework::Onnx,
                          "compare runs one spec in every framework; in ONNX alone it is that "
                          "framework's subscript (the framework models write it)."),
             noEquivalent(Framework::Paddle,
                          "compare runs one spec in every framework; in PaddlePaddle alone it is "
                          "that framework's subscript (the framework models write it).")}}};
}

} // namespace

} // namespace ss

// Referenced by name from CMake (a linker --undefined), so that a static link keeps this file.
extern "C" const bool slicescope_frameworks_ops = ss::registerOps(ss::compareOps);
