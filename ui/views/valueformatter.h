// SPDX-License-Identifier: GPL-3.0-or-later
// How a tensor's elements read as text: one style per tensor (like NumPy's printout), so a
// column of floats lines up and "3." still says "float".
#pragma once

#include "core/tensor.h"

#include <QString>

#include <cstdint>

namespace ss::ui {

class ValueFormatter
{
public:
    ValueFormatter() = default;
    /// Chooses the float style from a bounded sample of the elements, so a huge tensor costs
    /// no more than a small one.
    explicit ValueFormatter(const Tensor& tensor);

    /// The text a cell shows: "7", "0.25", "3.", "1.500e+09", "nan", "True", "'abc'" (bytes:
    /// "b'abc'", "b'\\xc3\\xa9'"; Python's repr, as NumPy prints them), "1.50+2.00j" (complex:
    /// both parts in the tensor's one style).
    QString text(std::int64_t index) const;
    /// The full-precision text an editor starts from (strings unquoted; bytes as the UTF-8 text
    /// they hold, which an edit writes back as UTF-8: é is b'\\xc3\\xa9'): the shortest decimal
    /// that reads back as the same value of the dtype ("0.1" for a float16 0.1), complex as
    /// "1.5-2j". parseElement() reads it back to the same bits.
    QString editText(std::int64_t index) const;

private:
    QString realText(double v) const;
    double shown(double v) const;

    enum class FloatStyle { Integral, Fixed, Scientific };

    Tensor m_tensor;
    FloatStyle m_style = FloatStyle::Fixed;
    int m_decimals = 4;
};

/// Makes counts read "1,670,000 elements" in every locale: the C locale (an account without
/// LANG) leaves group separators out unless told to keep them.
void keepGroupSeparators();

/// Reads what a person typed into a cell as one element of `dtype` (a rank-0 tensor): a number,
/// true/false, a string as typed; nan, inf and -inf for floats; for complex a+bj, a-bj, bj, a
/// (Python's spelling, parentheses allowed) or [a, b]. Throws OpError with a message that names
/// the dtype's rule where the text does not fit it (out of range, not an integer, ...).
Tensor parseElement(const QString& text, DType dtype, const Limits& limits);
/// A copy of `tensor` with element `flat` replaced by parseElement(text). The tensor itself is
/// never written (it may be a mapped file); the copy is checked against `limits` and the memory
/// free now first (resource_exhausted).
Tensor withElement(const Tensor& tensor, std::int64_t flat, const QString& text,
                   const Limits& limits);

} // namespace ss::ui
