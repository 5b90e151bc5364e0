// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/code_snippet.h"

#include "core/error.h"
#include "core/frameworks/op_equivalents.h"
#include "core/slice_expr.h"

#include <algorithm>
#include <cmath>
#include <regex>

namespace ss {

namespace {

// How each framework makes a tensor: its module, the spelling of a dtype, and whether it holds
// strings at all.
struct Maker
{
    std::string module; ///< "np", "torch", "tf", "jnp", "paddle"
    std::string import; ///< the line that brings `module` in
};

Maker makerFor(Framework framework)
{
    switch (framework) {
    case Framework::PyTorch: return {"torch", "import torch"};
    case Framework::TensorFlow: return {"tf", "import tensorflow as tf"};
    case Framework::Jax: return {"jnp", "import jax.numpy as jnp"};
    case Framework::Paddle: return {"paddle", "import paddle"};
    // ONNX's code takes its input as a NumPy array (the graph's input type is read from it).
    case Framework::NumPy:
    case Framework::Onnx: break;
    }
    return {"np", "import numpy as np"};
}

std::string dtypeText(Framework framework, DType dtype)
{
    const std::string name(dtypeName(dtype));
    const Maker m = makerFor(framework);
    if (m.module == "paddle") return "\"" + name + "\"";
    if (dtype == DType::String) return m.module == "tf" ? "tf.string" : "object";
    if (dtype == DType::Bool && (m.module == "np" || m.module == "jnp")) return m.module + ".bool_";
    return m.module + "." + name;
}

std::string shapeArgs(const Shape& shape, bool paddle)
{
    std::string t;
    for (std::size_t k = 0; k < shape.size(); ++k)
        t += (k ? ", " : "") + std::to_string(shape[k]);
    return paddle ? "[" + t + "]" : t;
}

std::string elementText(const Tensor& t, std::int64_t i)
{
    switch (t.dtype()) {
    case DType::Bool: return t.intAt(i) ? "True" : "False";
    case DType::String: return "b" + pythonStringRepr(t.data<std::string>()[i]);
    case DType::UInt64: return std::to_string(t.data<std::uint64_t>()[i]);
    default: break;
    }
    const auto real = [](double v) -> std::string {
        if (std::isnan(v)) return "float(\"nan\")";
        if (std::isinf(v)) return v > 0 ? "float(\"inf\")" : "float(\"-inf\")";
        return pythonFloatRepr(v);
    };
    if (isFloat(t.dtype())) return real(t.doubleAt(i));
    if (isComplex(t.dtype())) {
        const std::complex<double> c = t.complexAt(i);
        return "complex(" + real(c.real()) + ", " + real(c.imag()) + ")";
    }
    return std::to_string(t.intAt(i));
}

// The elements as nested Python lists, one level per dimension.
std::string nestedList(const Tensor& t)
{
    const Shape& shape = t.shape();
    if (shape.empty()) return elementText(t, 0);
    std::string out;
    std::int64_t next = 0;
    const auto write = [&](auto&& self, std::size_t dim) -> void {
        out += '[';
        for (std::int64_t k = 0; k < shape[dim]; ++k) {
            if (k) out += ", ";
            if (dim + 1 == shape.size())
                out += elementText(t, next++);
            else
                self(self, dim + 1);
        }
        out += ']';
    };
    write(write, 0);
    return out;
}

// The expression that builds one input in `framework`.
std::string build(Framework framework, const SnippetInput& in, const std::string& name)
{
    const Maker m = makerFor(framework);
    const bool paddle = m.module == "paddle";
    const std::string dtype = dtypeText(framework, in.dtype);
    const bool holdsStrings = m.module == "np" || m.module == "tf";
    if (in.dtype == DType::String && !holdsStrings)
        invalidArgument("no direct equivalent in " +
                        std::string(frameworkModel(framework).title()) + " for input '" + name +
                        "': it holds strings, which the framework's tensors cannot");
    const Shape& shape = in.values ? in.values->shape() : in.shape;
    const std::int64_t n = numElements(shape);
    const auto generated = [&](const std::string& how) {
        if (m.module == "tf")
            return "tf." + how + "(" + shapeTuple(shape) + ", dtype=" + dtype + ")";
        if (paddle)
            return "paddle." + how + "(" + shapeArgs(shape, true) + ", dtype=" + dtype + ")";
        return m.module + "." + how + "(" + shapeTuple(shape) + ", dtype=" + dtype + ")";
    };
    if (n == 0 && in.dtype != DType::String) return generated("zeros");
    if (!in.values && in.dtype != DType::String &&
        (in.fill == Fill::Zeros || in.fill == Fill::Ones))
        return generated(in.fill == Fill::Zeros ? "zeros" : "ones");
    // An arange the framework makes itself: numbers that fit the dtype, in a shape with room.
    const bool plainArange = !in.values && in.fill == Fill::Arange && !shape.empty() &&
                             in.dtype != DType::Bool && in.dtype != DType::String &&
                             (!isInteger(in.dtype) || n - 1 <= integerMax(in.dtype));
    if (plainArange) {
        const std::string count = std::to_string(n);
        const std::string reshape =
            shape.size() == 1 ? "" : ".reshape(" + shapeArgs(shape, paddle) + ")";
        if (m.module == "tf")
            return shape.size() == 1 ? "tf.range(" + count + ", dtype=" + dtype + ")"
                                     : "tf.reshape(tf.range(" + count + ", dtype=" + dtype + "), " +
                                           shapeTuple(shape) + ")";
        return m.module + ".arange(" + count + ", dtype=" + dtype + ")" + reshape;
    }
    // Everything else is written out element by element (random values as makeFilled makes
    // them, which no framework's generator repeats).
    if (n > kSnippetLiteralLimit)
        invalidArgument("input '" + name + "' has " + std::to_string(n) +
                        " elements: too many to write out in code (at most " +
                        std::to_string(kSnippetLiteralLimit) +
                        "); save it as .npy and load it with np.load instead");
    const Tensor values =
        in.values ? *in.values
                  : makeFilled(in.dtype, shape, in.fill, in.seed, Limits::machineDefault());
    const std::string literal = nestedList(values);
    if (m.module == "torch") return "torch.tensor(" + literal + ", dtype=" + dtype + ")";
    if (m.module == "tf") return "tf.constant(" + literal + ", dtype=" + dtype + ")";
    if (paddle) return "paddle.to_tensor(" + literal + ", dtype=" + dtype + ")";
    return m.module + ".array(" + literal + ", dtype=" + dtype + ")";
}

bool startsWith(const std::string& s, const std::string& prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        lines.push_back(text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
        if (nl == std::string::npos) break;
        pos = nl + 1;
    }
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    return lines;
}

// Makes the last statement an assignment to y, unless it already assigns: code whose last line
// is a bare expression gives nothing when pasted into a script.
void assignResult(std::vector<std::string>& lines)
{
    for (std::size_t k = lines.size(); k-- > 0;) {
        const std::string& line = lines[k];
        if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '#') continue;
        static const std::regex assignment(R"(^[A-Za-z_][A-Za-z0-9_]*\s*=[^=])");
        if (std::regex_search(line, assignment)) return;
        lines[k] = "y = " + line;
        // Continuation lines stay under the call's opening parenthesis.
        for (std::size_t j = k + 1; j < lines.size(); ++j)
            if (!lines[j].empty() && lines[j][0] == ' ') lines[j] = "    " + lines[j];
        return;
    }
}

} // namespace

SnippetInput snippetInput(const ExampleTensor& example, const Limits& limits)
{
    SnippetInput in;
    in.dtype = example.dtype;
    in.shape = example.shape;
    in.fill = example.fill;
    if (!example.value.isNull()) {
        in.values = makeExampleTensor(example, limits);
        in.shape = in.values->shape();
    }
    return in;
}

namespace {

// getitem and strided_slice: the framework models write the code, on an input called x.
bool writtenAsSpec(const OpDef& op)
{
    const auto& rows = opEquivalents();
    return std::any_of(rows.begin(), rows.end(),
                       [&](const OpEquivalent& row) { return row.op == op.name && row.subscript; });
}

} // namespace

std::string snippetInputName(const OpDef& op, std::size_t k)
{
    if (writtenAsSpec(op) || k >= op.inputs.size()) return "x";
    return op.inputs[k].name;
}

std::string runnableCode(Framework framework, const OpDef& op,
                         const std::vector<std::vector<SnippetInput>>& inputs, const Attrs& attrs)
{
    if (inputs.size() != op.inputs.size())
        badRequest("op '" + op.name + "' takes " + std::to_string(op.inputs.size()) +
                   " inputs, not " + std::to_string(inputs.size()));
    std::string body;
    if (writtenAsSpec(op) && !inputs.empty() && !inputs[0].empty()) {
        const SnippetInput& x = inputs[0][0];
        body = frameworkModel(framework).code(IndexSpec::fromAttrs(op.name, attrs),
                                              x.values ? x.values->shape() : x.shape);
    } else {
        body = opCode(framework, op, attrs);
    }
    // The input lines, each under the name the op's code uses.
    std::vector<std::string> built;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const std::string name = snippetInputName(op, k);
        if (!op.inputs[k].isList) {
            if (inputs[k].size() != 1)
                badRequest("input '" + op.inputs[k].name + "' of op '" + op.name +
                           "' takes one tensor");
            built.push_back(name + " = " + build(framework, inputs[k][0], name));
            continue;
        }
        std::string list = name + " = [";
        for (std::size_t j = 0; j < inputs[k].size(); ++j)
            list += "\n    " +
                    build(framework, inputs[k][j], name + "[" + std::to_string(j) + "]") + ",";
        built.push_back(list + "\n]");
    }
    // Imports first (the code's own and the one the inputs need), then the inputs, then the rest.
    std::vector<std::string> imports;
    std::vector<std::string> rest;
    for (const std::string& line : splitLines(body)) {
        if (startsWith(line, "import ") || startsWith(line, "from ")) {
            if (std::find(imports.begin(), imports.end(), line) == imports.end())
                imports.push_back(line);
        } else {
            rest.push_back(line);
        }
    }
    const std::string own = makerFor(framework).import;
    if (std::find(imports.begin(), imports.end(), own) == imports.end())
        imports.insert(imports.begin(), own);
    // The blank line that followed the imports goes with them, also after a leading note.
    for (std::size_t k = 0; k < rest.size() && (rest[k].empty() || rest[k][0] == '#');)
        if (rest[k].empty())
            rest.erase(rest.begin() + std::ptrdiff_t(k));
        else
            ++k;
    if (framework != Framework::Onnx) assignResult(rest);
    std::string out;
    for (const std::string& line : imports)
        out += line + "\n";
    out += "\n";
    for (const std::string& line : built)
        out += line + "\n";
    for (const std::string& line : rest)
        out += line + "\n";
    return out;
}

} // namespace ss
