// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/shape.h"
#include "core/tensor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

/// How formatTensor prints (NumPy's print options by default).
struct PrintOptions
{
    std::int64_t threshold = 1000; ///< tensors with more elements show only their edges
    int edgeItems = 3;             ///< elements kept at each end of a summarised dimension
    int lineWidth = 75;            ///< rows wrap beyond this many characters
    /// If set, elements for which it returns true are drawn in bold colour (ANSI escapes).
    std::function<bool(std::int64_t flatIndex)> highlight;
};

/// A tensor the way NumPy's str() prints it: nested brackets, right-aligned integers, floats
/// aligned on the decimal point (scientific when NumPy would switch), True/False, quoted
/// strings ('abc', or b'abc' for bytes), and "..." in place of the middle of big dimensions.
std::string formatTensor(const Tensor& tensor, const PrintOptions& options = {});

/// A shape without spaces: "(2,1,5)", "(5,)", "()".
std::string compactShape(const Shape& shape);

/// Columns on a terminal: display width ignores ANSI escapes and counts UTF-8 characters.
int displayWidth(std::string_view text);
/// Splits `text` into lines of at most `width` characters at spaces (longer words stay whole).
std::vector<std::string> wrapText(std::string_view text, int width);

/// An aligned text table. A cell holding several lines ('\n') spans several output lines; the
/// last column wraps to fit `width` in total.
class TextTable
{
public:
    enum class Align { Left, Right };

    void addColumn(std::string header, Align align = Align::Left);
    void addRow(std::vector<std::string> cells);
    std::string render(const std::string& indent, int width) const;

private:
    std::vector<std::string> m_headers;
    std::vector<Align> m_aligns;
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace ss
