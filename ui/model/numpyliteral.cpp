// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/numpyliteral.h"

#include "core/frameworks/code_snippet.h"
#include "core/numpy_strings.h"
#include "core/strings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace ss::ui {

namespace {

template <class T> void appendFloat(std::string& out, T value)
{
    if (std::isnan(value)) {
        out += "np.nan";
        return;
    }
    if (std::isinf(value)) {
        out += value < 0 ? "-np.inf" : "np.inf";
        return;
    }
    char buf[64];
    // Shortest text that reads back as the same value of this width (Python's repr does the
    // same for float64; with dtype=np.float32 the float32 text rounds back exactly).
    const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    std::string text(buf, end);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    out += text;
}

void appendElement(std::string& out, const Tensor& t, std::int64_t i)
{
    visitDType(t.dtype(), [&]<class T>(std::type_identity<T>) {
        const T& v = t.data<T>()[i];
        if constexpr (std::is_same_v<T, bool>)
            out += v ? "True" : "False";
        else if constexpr (std::is_same_v<T, std::string>)
            out += pythonStringRepr(v, t.holdsBytes());
        else if constexpr (std::is_floating_point_v<T>)
            appendFloat(out, v);
        else if constexpr (kIsHalfFloat<T>) {
            // The shortest text of the 16-bit value ("0.1", not its float32 expansion). A
            // bfloat16 is written exactly instead: without ml_dtypes the array is float32,
            // where "0.1" would not be the bfloat16 value.
            const double x = toFloat(v);
            if (std::is_same_v<T, BFloat16>)
                appendFloat(out, x);
            else if (std::isfinite(x))
                out += shortestDecimal(x, t.dtype());
            else
                appendFloat(out, x);
        } else if constexpr (kIsComplex<T>) {
            out += "complex(";
            appendFloat(out, v.real());
            out += ", ";
            appendFloat(out, v.imag());
            out += ")";
        } else if constexpr (std::is_unsigned_v<T>)
            out += std::to_string(std::uint64_t(v));
        else
            out += std::to_string(std::int64_t(v));
    });
}

// Nested lists as NumPy prints them: the innermost rows on their own lines, one blank line more
// between each outer level, every row aligned under its opening bracket.
void appendNested(std::string& out, const Tensor& t, int dim, std::int64_t offset,
                  std::int64_t stride, std::size_t column)
{
    const Shape& shape = t.shape();
    const int rank = t.rank();
    out += '[';
    const std::int64_t inner = stride / shape[std::size_t(dim)];
    for (std::int64_t k = 0; k < shape[std::size_t(dim)]; ++k) {
        if (k > 0) {
            if (dim == rank - 1) {
                out += ", ";
            } else {
                out += ',';
                out += std::string(std::size_t(rank - 1 - dim), '\n');
                out += std::string(column + std::size_t(dim) + 1, ' ');
            }
        }
        if (dim == rank - 1)
            appendElement(out, t, offset + k);
        else
            appendNested(out, t, dim + 1, offset + k * inner, inner, column);
    }
    out += ']';
}

std::string dtypeText(const Tensor& t)
{
    switch (t.dtype()) {
    case DType::Bool: return "np.bool_";
    case DType::String: return "'" + numpyStringDescr(t) + "'";
    // NumPy has no bfloat16: the prelude binds this name (numpyBFloat16Prelude).
    case DType::BFloat16: return "bfloat16";
    default: return "np." + std::string(dtypeName(t.dtype()));
    }
}

} // namespace

QString numpyLiteral(const Tensor& tensor)
{
    const std::string dtype = dtypeText(tensor);
    // A bfloat16 array needs its type first, and a comment on why (what Copy as writes too).
    const std::string prelude =
        tensor.dtype() == DType::BFloat16 ? numpyBFloat16Prelude() : std::string();
    std::string out;
    if (tensor.size() == 0) {
        // Nested empty lists cannot say (0, 3): the shape is given instead.
        out = "np.empty((";
        for (std::size_t d = 0; d < tensor.shape().size(); ++d)
            out += std::to_string(tensor.shape()[d]) + (tensor.rank() == 1              ? ","
                                                        : d + 1 < tensor.shape().size() ? ", "
                                                                                        : "");
        out += "), dtype=" + dtype + ")";
        return QString::fromStdString(prelude + out);
    }
    out = "np.array(";
    if (tensor.rank() == 0)
        appendElement(out, tensor, 0);
    else
        appendNested(out, tensor, 0, 0, tensor.size(), out.size());
    out += ", dtype=" + dtype + ")";
    return QString::fromStdString(prelude + out);
}

} // namespace ss::ui
