// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/code_snippet.h"

#include "core/error.h"
#include "core/frameworks/op_equivalents.h"
#include "core/numpy_strings.h"
#include "core/slice_expr.h"
#include "core/strings.h"

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

std::vector<std::string> splitLines(const std::string& text);

// How a framework's code holds a dtype, in the library version its model names: the spelling,
// the lines the code needs first (imports, and a comment where the library lacks the type) and
// the dtype whose values the code writes (the same, or the wider one that stands in for it).
struct DTypeSpelling
{
    std::string text;                 ///< "np.float16", "bfloat16", "torch.int32"
    std::vector<std::string> prelude; ///< lines before the inputs
    DType heldAs = DType::Int32;      ///< the element type of the values written
};

DTypeSpelling spell(Framework framework, DType dtype)
{
    const std::string name(dtypeName(dtype));
    const Maker m = makerFor(framework);
    DTypeSpelling s;
    s.heldAs = dtype;
    if (m.module == "paddle") {
        if (dtype == DType::UInt16 || dtype == DType::UInt32 || dtype == DType::UInt64)
            invalidArgument("no direct equivalent in " +
                            std::string(frameworkModel(framework).title()) + " for " + name +
                            ": PaddlePaddle's tensors have no unsigned type but uint8");
        s.text = "\"" + name + "\"";
        return s;
    }
    if (dtype == DType::String) {
        // NumPy's own type ('|S2', '<U3') depends on the values: build() writes it.
        s.text = m.module == "tf" ? "tf.string" : "";
        return s;
    }
    if (dtype == DType::Bool && (m.module == "np" || m.module == "jnp")) {
        s.text = m.module + ".bool_";
        return s;
    }
    if (dtype == DType::BFloat16 && m.module == "np") {
        if (framework == Framework::Onnx)
            invalidArgument("no direct equivalent in " +
                            std::string(frameworkModel(framework).title()) +
                            " for bfloat16: the ONNX code reads its input's type from a "
                            "NumPy array, and python3-onnx 1.12 maps no NumPy type to BFLOAT16 "
                            "(NumPy has none)");
        s.text = "bfloat16";
        s.prelude = splitLines(numpyBFloat16Prelude());
        return s;
    }
    if (m.module == "torch" &&
        (dtype == DType::UInt16 || dtype == DType::UInt32 || dtype == DType::UInt64)) {
        // PyTorch 1.13 has torch.uint8 only (uint16/32/64 came in 2.3, with few ops): a signed
        // type that holds the same elements stands in, which slicing moves unchanged.
        s.heldAs = dtype == DType::UInt16 ? DType::Int32 : DType::Int64;
        const std::string held(dtypeName(s.heldAs));
        s.text = "torch." + held;
        s.prelude = {"# PyTorch 1.13 has no torch." + name +
                     " (PyTorch 2.3 added it, with few ops): the values are"};
        if (dtype == DType::UInt64) {
            s.prelude.push_back("# held as torch.int64, those above 2**63 - 1 as the int64 of the "
                                "same 64 bits");
            s.prelude.push_back("# (value - 2**64); slicing moves them unchanged.");
        } else {
            s.prelude.push_back("# held as torch." + held + ", which holds every " + name +
                                "; slicing moves them unchanged.");
        }
        return s;
    }
    if (m.module == "jnp" && dtypeSize(dtype) >= 8 && dtype != DType::Complex64) {
        // Without x64, jnp.int64, jnp.float64, ... silently become their 32-bit types.
        s.prelude = {"import jax",
                     "jax.config.update(\"jax_enable_x64\", True)  # 64-bit types stay 64-bit"};
    }
    s.text = m.module + "." + name;
    return s;
}

std::string shapeArgs(const Shape& shape, bool paddle)
{
    return paddle ? listText(shape) : joinInts(shape);
}

// Element i as a Python literal; `signedUInt64` writes a uint64 as the int64 of the same bits
// (PyTorch 1.13 holds uint64 as int64). Strings are bytes or text as the tensor holds them.
std::string elementText(const Tensor& t, std::int64_t i, bool signedUInt64 = false)
{
    switch (t.dtype()) {
    case DType::Bool: return t.intAt(i) ? "True" : "False";
    case DType::String: return pythonStringRepr(t.data<std::string>()[i], t.holdsBytes());
    case DType::UInt64:
        if (signedUInt64) return std::to_string(std::int64_t(t.data<std::uint64_t>()[i]));
        return std::to_string(t.data<std::uint64_t>()[i]);
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
std::string nestedList(const Tensor& t, bool signedUInt64)
{
    const Shape& shape = t.shape();
    if (shape.empty()) return elementText(t, 0, signedUInt64);
    std::string out;
    std::int64_t next = 0;
    const auto write = [&](auto&& self, std::size_t dim) -> void {
        out += '[';
        for (std::int64_t k = 0; k < shape[dim]; ++k) {
            if (k) out += ", ";
            if (dim + 1 == shape.size())
                out += elementText(t, next++, signedUInt64);
            else
                self(self, dim + 1);
        }
        out += ']';
    };
    write(write, 0);
    return out;
}

// The expression that builds one input in `framework`.
std::string build(Framework framework, const SnippetInput& in, const std::string& name,
                  std::vector<std::string>& prelude)
{
    const Maker m = makerFor(framework);
    const bool paddle = m.module == "paddle";
    DTypeSpelling spelling;
    try {
        spelling = spell(framework, in.dtype);
    } catch (const OpError& e) {
        throw OpError(e.code(), "input '" + name + "': " + e.what());
    }
    // Once per snippet, however many inputs need it.
    if (!spelling.prelude.empty() &&
        std::search(prelude.begin(), prelude.end(), spelling.prelude.begin(),
                    spelling.prelude.end()) == prelude.end())
        prelude.insert(prelude.end(), spelling.prelude.begin(), spelling.prelude.end());
    const std::string dtype = spelling.text;
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
    // NumPy without ml_dtypes holds bfloat16 as float32, where an arange past 256 would not
    // round as bfloat16 does: those values are written out.
    const bool heldExactly = !(spelling.text == "bfloat16" && n - 1 > 256);
    const bool plainArange = !in.values && in.fill == Fill::Arange && !shape.empty() &&
                             in.dtype != DType::Bool && in.dtype != DType::String &&
                             (!isInteger(in.dtype) || n - 1 <= integerMax(in.dtype)) && heldExactly;
    if (plainArange) {
        const std::string count = std::to_string(n);
        const std::string reshape =
            shape.size() == 1 ? "" : ".reshape(" + shapeArgs(shape, paddle) + ")";
        if (m.module == "tf") {
            // tf.range's dtypes differ between TensorFlow versions (int32, int64, float32 and
            // float64 in every one): the others are cast from int32.
            const bool ranged = in.dtype == DType::Int32 || in.dtype == DType::Int64 ||
                                in.dtype == DType::Float32 || in.dtype == DType::Float64;
            const std::string range = ranged ? "tf.range(" + count + ", dtype=" + dtype + ")"
                                             : "tf.cast(tf.range(" + count + "), " + dtype + ")";
            return shape.size() == 1 ? range
                                     : "tf.reshape(" + range + ", " + shapeTuple(shape) + ")";
        }
        // PyTorch 1.13's arange has no complex kernel, and ml_dtypes' bfloat16 no arange: cast.
        if ((m.module == "torch" && isComplex(in.dtype)) || spelling.text == "bfloat16")
            return m.module + ".arange(" + count + ")." +
                   (m.module == "torch" ? "to(" : "astype(") + dtype + ")" + reshape;
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
    const std::string literal = nestedList(values, spelling.heldAs != in.dtype);
    if (m.module == "torch") return "torch.tensor(" + literal + ", dtype=" + dtype + ")";
    if (m.module == "tf") return "tf.constant(" + literal + ", dtype=" + dtype + ")";
    if (paddle) return "paddle.to_tensor(" + literal + ", dtype=" + dtype + ")";
    // Strings in NumPy's own type, as np.array and np.save make it: '|S2', '<U3'.
    const std::string npDtype =
        in.dtype == DType::String ? "'" + numpyStringDescr(values) + "'" : dtype;
    return m.module + ".array(" + literal + ", dtype=" + npDtype + ")";
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
    return op.indexSpec;
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
    std::vector<std::string> prelude; // what the inputs' dtypes need first
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const std::string name = snippetInputName(op, k);
        if (!op.inputs[k].isList) {
            if (inputs[k].size() != 1)
                badRequest("input '" + op.inputs[k].name + "' of op '" + op.name +
                           "' takes one tensor");
            built.push_back(name + " = " + build(framework, inputs[k][0], name, prelude));
            continue;
        }
        std::string list = name + " = [";
        for (std::size_t j = 0; j < inputs[k].size(); ++j)
            list += "\n    " +
                    build(framework, inputs[k][j], name + "[" + std::to_string(j) + "]", prelude) +
                    ",";
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
    // The dtypes' imports join the others; their notes and set-up come before the inputs.
    std::vector<std::string> setUp;
    for (const std::string& line : prelude) {
        if (startsWith(line, "import ") || startsWith(line, "from ")) {
            if (std::find(imports.begin(), imports.end(), line) == imports.end())
                imports.push_back(line);
        } else {
            setUp.push_back(line);
        }
    }
    std::string out;
    for (const std::string& line : imports)
        out += line + "\n";
    out += "\n";
    for (const std::string& line : setUp)
        out += line + "\n";
    for (const std::string& line : built)
        out += line + "\n";
    for (const std::string& line : rest)
        out += line + "\n";
    return out;
}

std::string numpyBFloat16Prelude()
{
    return "# NumPy has no bfloat16: ml_dtypes.bfloat16 (pip install ml-dtypes; JAX and\n"
           "# TensorFlow install it) is the bfloat16 NumPy arrays use. Without it, the values\n"
           "# are held as float32, which holds every bfloat16 exactly.\n"
           "try:\n"
           "    from ml_dtypes import bfloat16\n"
           "except ImportError:\n"
           "    bfloat16 = np.float32\n";
}

} // namespace ss
