// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the engine suites: runs an op through plan + execute + sources, and checks on every
// run that the values and the sources tell the same story.
#pragma once

#include "core/error.h"
#include "core/executor.h"
#include "core/op.h"

#include <QTest>

#include <cstring>
#include <string>
#include <vector>

namespace ss::testing {

struct OpRun
{
    OpPlan plan;
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
    std::vector<SourceList> sources;
};

inline Executor& testExecutor()
{
    static Executor executor(2);
    return executor;
}

/// A tensor from values given as int64 (any dtype but string).
inline Tensor ints(DType dtype, const Shape& shape, const std::vector<std::int64_t>& values)
{
    Tensor t = Tensor::empty(dtype, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.setFromInt(i, values[std::size_t(i)]);
    return t;
}
inline Tensor i32(const Shape& shape, const std::vector<std::int64_t>& values)
{
    return ints(DType::Int32, shape, values);
}
/// iota(shape) as int32 (0, 1, 2, ...), optionally offset.
inline Tensor iota(const Shape& shape, std::int64_t offset = 0, DType dtype = DType::Int32)
{
    Tensor t = Tensor::empty(dtype, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.setFromInt(i, i + offset);
    return t;
}
inline Tensor strings(const Shape& shape, const std::vector<std::string>& values)
{
    Tensor t = Tensor::empty(DType::String, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.data<std::string>()[i] = values[std::size_t(i)];
    return t;
}
inline std::vector<std::int64_t> values(const Tensor& t)
{
    return t.toInt64Vector();
}

/// Bitwise equality of element i of a and element j of b (same dtype).
inline bool sameElement(const Tensor& a, std::int64_t i, const Tensor& b, std::int64_t j)
{
    if (a.dtype() == DType::String) return a.data<std::string>()[i] == b.data<std::string>()[j];
    const int w = dtypeSize(a.dtype());
    return std::memcmp(static_cast<const char*>(a.raw()) + i * w,
                       static_cast<const char*>(b.raw()) + j * w, std::size_t(w)) == 0;
}

/// Plans, executes and traces an op. Throws OpError as the op does (planSources reports an
/// element the plan never writes). Verifies that each one with a source equals that source element.
inline OpRun runOp(std::string_view name, std::vector<std::vector<Tensor>> inputs, Attrs attrs = {})
{
    const OpDef* def = findOp(name);
    if (!def) throw OpError(ErrorCode::BadRequest, "unknown op " + std::string(name));
    OpCall call(*def, std::move(inputs), std::move(attrs), Limits::machineDefault());
    call.setExecutor(&testExecutor());
    OpRun run;
    run.plan = def->plan(call);
    run.inputs = call.allInputs();
    run.outputs = executePlan(run.plan, run.inputs, testExecutor());
    for (int k = 0; k < int(run.plan.outputs.size()); ++k) {
        run.sources.push_back(planSources(run.plan, k, testExecutor()));
        const Tensor& out = run.outputs[std::size_t(k)];
        const auto& src = run.sources.back();
        if (std::int64_t(src.size()) != out.size())
            throw OpError(ErrorCode::Internal, "sources and output sizes differ");
        for (std::int64_t i = 0; i < out.size(); ++i) {
            const std::int64_t s = src[std::size_t(i)];
            if (s != kNoSource &&
                !sameElement(out, i, run.inputs[std::size_t(sourceSlot(s))], sourceIndex(s)))
                throw OpError(ErrorCode::Internal, "output " + std::to_string(k) + " element " +
                                                       std::to_string(i) +
                                                       " differs from its source");
        }
    }
    return run;
}

/// Runs the op expecting an OpError with this code and (if non-empty) exactly this message.
#define SS_EXPECT_ERROR(expr, errorCode, expectedMessage)                                          \
    do {                                                                                           \
        bool thrown_ = false;                                                                      \
        try {                                                                                      \
            (void)(expr);                                                                          \
        } catch (const ::ss::OpError& e_) {                                                        \
            thrown_ = true;                                                                        \
            QCOMPARE(std::string(::ss::errorCodeName(e_.code())),                                  \
                     std::string(::ss::errorCodeName(errorCode)));                                 \
            if (!std::string(expectedMessage).empty())                                             \
                QCOMPARE(std::string(e_.what()), std::string(expectedMessage));                    \
        }                                                                                          \
        QVERIFY2(thrown_, "expected an OpError");                                                  \
    } while (false)

} // namespace ss::testing
