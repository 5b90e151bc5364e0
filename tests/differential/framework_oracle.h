// SPDX-License-Identifier: GPL-3.0-or-later
// Runs generated framework code with the real library: one python process per batch. Each case
// is a shape and a piece of code whose last statement is the result (an expression, or an
// assignment whose target is the result); the input is `x`, arange over the shape as int64.
#pragma once

#include "../engine/numpy_oracle.h"
#include "../engine/op_runner.h"
#include "core/frameworks/framework_model.h"
#include "core/shape.h"

#include <QList>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ss::testing {

struct CodeRun
{
    bool ok = false;
    Shape shape;
    std::vector<std::int64_t> values;
    std::string errorType;
    std::string message;
};

/// `library` is "numpy" or "torch" (the tensor type x is made as); `prelude` is python run once
/// first (helpers a check needs). Returns one CodeRun per case, in order.
inline std::vector<CodeRun> runCodeBatch(const std::string& library,
                                         const std::vector<std::pair<Shape, std::string>>& cases,
                                         const std::string& prelude = "")
{
    const std::string script = R"PY(
import ast, sys
import numpy as np
LIB = sys.argv[1]
if LIB == 'torch':
    import torch
def make_x(shape):
    n = int(np.prod(shape, dtype=np.int64))
    if LIB == 'torch':
        return torch.arange(n, dtype=torch.int64).reshape(shape)
    return np.arange(n, dtype=np.int64).reshape(shape)
)PY" + prelude + R"PY(
out = []
for line in sys.stdin.read().split('\n'):
    if not line:
        continue
    shape_text, code = line.split('\t', 1)
    code = code.replace('\x1f', '\n')
    shape = tuple(int(v) for v in shape_text.split(',')) if shape_text else ()
    ns = {'x': make_x(shape)}
    try:
        tree = ast.parse(code)
        last = tree.body[-1]
        exec(compile(ast.Module(body=tree.body[:-1], type_ignores=[]), '<code>', 'exec'), ns)
        if isinstance(last, ast.Expr):
            r = eval(compile(ast.Expression(body=last.value), '<code>', 'eval'), ns)
        else:
            exec(compile(ast.Module(body=[last], type_ignores=[]), '<code>', 'exec'), ns)
            r = ns[last.targets[0].id]
        if 'result_of' in globals():
            r = result_of(r, ns['x'])
        r = np.asarray(r)
        if r.dtype.kind in 'fb':  # integer values computed in floats (PyTorch's reflect pad)
            r = r.astype(np.int64)
        out.append('ok\t' + ','.join(map(str, r.shape)) + '\t' +
                   ' '.join(map(str, r.ravel().tolist())))
    except Exception as e:
        msg = str(e).replace('\n', ' ').replace('\t', ' ').replace('\r', ' ')
        out.append('err\t' + type(e).__name__ + '\t' + msg)
sys.stdout.write('\n'.join(out) + '\n')
)PY";
    QByteArray batch;
    for (const auto& [shape, code] : cases) {
        QStringList dims;
        for (std::int64_t d : shape)
            dims << QString::number(d);
        std::string flat = code;
        for (char& c : flat)
            if (c == '\n') c = '\x1f';
        batch += dims.join(',').toUtf8() + '\t' + QByteArray::fromStdString(flat) + '\n';
    }
    QProcess p;
    p.start(numpyPython(), {QStringLiteral("-c"), QString::fromStdString(script),
                            QString::fromStdString(library)});
    if (!p.waitForStarted(10000)) throw std::runtime_error("cannot start python");
    p.write(batch);
    p.closeWriteChannel();
    if (!p.waitForFinished(240000)) {
        p.kill();
        throw std::runtime_error("python timed out");
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        throw std::runtime_error("python failed: " + p.readAllStandardError().toStdString());
    const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
    std::vector<CodeRun> runs;
    for (const QByteArray& line : lines) {
        if (line.isEmpty()) continue;
        const QList<QByteArray> f = line.split('\t');
        if (f.size() != 3) throw std::runtime_error("unreadable answer: " + line.toStdString());
        CodeRun r;
        r.ok = f[0] == "ok";
        if (r.ok) {
            for (const QByteArray& d : f[1].split(','))
                if (!d.isEmpty()) r.shape.push_back(d.toLongLong());
            for (const QByteArray& v : f[2].split(' '))
                if (!v.isEmpty()) r.values.push_back(v.toLongLong());
        } else {
            r.errorType = f[1].toStdString();
            r.message = f[2].toStdString();
        }
        runs.push_back(std::move(r));
    }
    if (runs.size() != cases.size()) throw std::runtime_error("python answered too few cases");
    return runs;
}

/// A model's outcome on x = arange(shape) as int64, with the values its plan produces.
struct ModelRun
{
    FrameworkOutcome outcome;
    Shape shape;
    std::vector<std::int64_t> values;
};

inline ModelRun runModel(const FrameworkModel& model, const IndexSpec& spec, const Shape& shape)
{
    ModelRun r;
    const Tensor x = iota(shape, 0, DType::Int64);
    r.outcome = model.plan(spec, x, Limits::machineDefault());
    if (r.outcome.kind == FrameworkOutcome::Kind::Result) {
        const auto outputs = executePlan(r.outcome.plan, {x}, testExecutor());
        r.shape = outputs[0].shape();
        r.values = values(outputs[0]);
        // The sources tell the same story as the values: x holds its own flat indices.
        const auto sources = planSources(r.outcome.plan, 0, testExecutor());
        for (std::size_t i = 0; i < sources.size(); ++i)
            if (sourceIndex(sources[i]) != r.values[i])
                throw std::runtime_error("sources and values disagree");
    }
    return r;
}

/// "shape (2,) [1 2]" or "IndexError: ..." for failure messages.
inline std::string describeRun(bool ok, const Shape& shape, const std::vector<std::int64_t>& v,
                               const std::string& error)
{
    if (!ok) return error;
    std::string text = "shape " + shapeTuple(shape) + " [";
    for (std::size_t k = 0; k < v.size() && k < 12; ++k)
        text += (k ? " " : "") + std::to_string(v[k]);
    return text + (v.size() > 12 ? " ...]" : "]");
}

/// The last line of a piece of code (the subscript itself for NumPy's).
inline std::string lastLine(const std::string& code)
{
    std::string trimmed = code;
    while (!trimmed.empty() && trimmed.back() == '\n')
        trimmed.pop_back();
    const auto nl = trimmed.rfind('\n');
    return nl == std::string::npos ? trimmed : trimmed.substr(nl + 1);
}

} // namespace ss::testing
