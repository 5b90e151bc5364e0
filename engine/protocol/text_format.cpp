// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/text_format.h"

#include "core/slice_expr.h"
#include "core/strings.h"
#include "core/tensor.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ss {

namespace {

constexpr const char* kHighlightOn = "\x1b[1;33m";
constexpr const char* kHighlightOff = "\x1b[0m";
// NumPy's default print precision: at most this many digits after the point.
constexpr int kPrecision = 8;

std::string pad(const std::string& s, int width, bool right, char fill = ' ')
{
    const int missing = width - displayWidth(s);
    if (missing <= 0) return s;
    const std::string padding(std::size_t(missing), fill);
    return right ? padding + s : s + padding;
}

// The digits NumPy's Dragon4 prints with unique=True and precision 8: the shortest text that
// identifies the value in its own type, rounded to 8 digits after the point if it has more.
template <class T> std::string shortest(T v, std::chars_format format)
{
    char buf[400];
    std::string text(buf, std::to_chars(buf, buf + sizeof buf, v, format).ptr);
    const std::size_t e = text.find('e');
    const std::size_t dot = text.find('.');
    const std::size_t digitsEnd = e == std::string::npos ? text.size() : e;
    if (dot != std::string::npos && digitsEnd - dot - 1 > std::size_t(kPrecision)) {
        text.assign(buf, std::to_chars(buf, buf + sizeof buf, v, format, kPrecision).ptr);
        const std::size_t end =
            format == std::chars_format::scientific ? text.find('e') : text.size();
        // Trailing zeros go; the point stays ("1."), as with NumPy's trim='.'.
        const std::size_t last = text.find_last_not_of('0', end - 1);
        text.erase(last + 1, end - last - 1);
    }
    return text;
}

struct FloatParts
{
    std::string whole, fraction, exponent; ///< exponent without the 'e'
};

FloatParts splitFloat(const std::string& text)
{
    FloatParts p;
    std::string mantissa = text;
    if (const std::size_t e = text.find('e'); e != std::string::npos) {
        p.exponent = text.substr(e + 1);
        mantissa = text.substr(0, e);
    }
    const std::size_t dot = mantissa.find('.');
    p.whole = mantissa.substr(0, dot);
    p.fraction = dot == std::string::npos ? "" : mantissa.substr(dot + 1);
    return p;
}

// The digits of the exact value with `fractionDigits` after the point, in scientific notation:
// NumPy's Dragon4 with min_digits prints the value's own further digits, not zeros, when a
// value needs fewer digits than the array's widest (5e-324 beside 1.5e-323 is 4.94065646e-324).
template <class T> std::string scientificDigits(T exact, std::size_t fractionDigits)
{
    char buf[400];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, exact,
                                          std::chars_format::scientific, int(fractionDigits))
                                .ptr);
}

// NumPy's FloatingFormat: positional or scientific for the whole array, digits aligned on the
// point, non-finite values right-aligned in the same width. `values` hold each element's shortest
// digits, `exact` the elements themselves (they differ for float16, whose shortest digits are
// carried by the double nearest them).
template <class T>
std::vector<std::string> formatFloats(const std::vector<T>& values, const std::vector<T>& exact)
{
    double maxAbs = 0;
    double minAbs = HUGE_VAL;
    bool anyFinite = false, negInf = false;
    for (const T v : values) {
        anyFinite = anyFinite || std::isfinite(v);
        negInf = negInf || (std::isinf(v) && v < 0);
        if (std::isfinite(v) && v != 0) {
            maxAbs = std::max(maxAbs, double(std::abs(v)));
            minAbs = std::min(minAbs, double(std::abs(v)));
        }
    }
    const bool scientific = maxAbs > 0 && (maxAbs >= 1e8 || minAbs < 1e-4 || maxAbs / minAbs > 1e3);
    const auto format = scientific ? std::chars_format::scientific : std::chars_format::fixed;
    std::size_t padLeft = 0, fractionWidth = 0, exponentWidth = 0;
    std::vector<FloatParts> parts(values.size());
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (!std::isfinite(values[k])) continue;
        parts[k] = splitFloat(shortest(values[k], format));
        fractionWidth = std::max(fractionWidth, parts[k].fraction.size());
    }
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (!std::isfinite(values[k])) continue;
        if (scientific) parts[k] = splitFloat(scientificDigits(exact[k], fractionWidth));
        padLeft = std::max(padLeft, parts[k].whole.size());
        if (scientific) {
            const std::string& e = parts[k].exponent;
            exponentWidth = std::max(exponentWidth, e.size() - 1); // digits after the sign
        }
    }
    const std::size_t padRight =
        anyFinite ? (scientific ? exponentWidth + 2 + fractionWidth : fractionWidth) : 0;
    if (values.size() != std::size_t(std::count_if(values.begin(), values.end(),
                                                   [](T v) { return std::isfinite(v); }))) {
        const int offset = int(padRight) + 1;
        padLeft = std::size_t(std::max({int(padLeft), 3 - offset, 3 + int(negInf) - offset}));
    }
    const int total = int(padLeft + padRight + 1);
    std::vector<std::string> out;
    for (std::size_t k = 0; k < values.size(); ++k) {
        const T v = values[k];
        if (!std::isfinite(v)) {
            out.push_back(pad(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf", total, true));
            continue;
        }
        const FloatParts& p = parts[k];
        std::string s = pad(p.whole, int(padLeft), true) + ".";
        if (scientific) {
            s += p.fraction + "e" + p.exponent.substr(0, 1) +
                 pad(p.exponent.substr(1), int(exponentWidth), true, '0');
        } else {
            s += pad(p.fraction, int(fractionWidth), false);
        }
        out.push_back(s);
    }
    return out;
}

// A rank-0 float as NumPy's scalar str() writes it (like Python's repr).
template <class T> std::string formatScalarFloat(T v)
{
    if (!std::isfinite(v)) return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
    const bool positional = v == 0 || (std::abs(v) >= T(1e-4) && std::abs(v) < T(1e16));
    char buf[400];
    std::string text(
        buf, std::to_chars(buf, buf + sizeof buf, v,
                           positional ? std::chars_format::fixed : std::chars_format::scientific)
                 .ptr);
    if (positional && text.find('.') == std::string::npos) text += ".0";
    return text;
}

std::vector<std::string> formatElements(const Tensor& t, const std::vector<std::int64_t>& indices)
{
    return visitDType(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* data = t.data<T>();
        std::vector<std::string> out;
        if constexpr (std::is_floating_point_v<T>) {
            if (t.rank() == 0) return std::vector<std::string>{formatScalarFloat(data[0])};
            std::vector<T> values;
            for (const std::int64_t i : indices)
                values.push_back(data[i]);
            return formatFloats(values, values);
        } else if constexpr (kIsHalfFloat<T>) {
            // The shortest decimal of the 16-bit value, as the double nearest it: printed as
            // a double, it shows the digits NumPy's float16 printout shows.
            std::vector<double> values, exact;
            for (const std::int64_t i : indices) {
                exact.push_back(realValue(data[i]));
                values.push_back(std::stod(shortestDecimal(exact.back(), t.dtype())));
            }
            if (t.rank() == 0) return std::vector<std::string>{formatScalarFloat(values[0])};
            return formatFloats(values, exact);
        } else if constexpr (kIsComplex<T>) {
            // Python's complex repr, a+bj, with each part as a float of the element's width.
            for (const std::int64_t i : indices) {
                std::string im = formatScalarFloat(data[i].imag());
                if (im[0] != '-') im = "+" + im;
                out.push_back("(" + formatScalarFloat(data[i].real()) + im + "j)");
            }
        } else if constexpr (std::is_same_v<T, std::uint64_t>) {
            int width = 0;
            for (const std::int64_t i : indices) {
                out.push_back(std::to_string(data[i]));
                width = std::max(width, int(out.back().size()));
            }
            for (auto& s : out)
                s = pad(s, width, true);
        } else if constexpr (std::is_same_v<T, std::string>) {
            // str() of a 0-d array of text is the text itself; of bytes, their repr.
            for (const std::int64_t i : indices)
                out.push_back(t.rank() == 0 && !t.holdsBytes()
                                  ? data[i]
                                  : pythonStringRepr(data[i], t.holdsBytes()));
        } else if constexpr (std::is_same_v<T, bool>) {
            for (const std::int64_t i : indices)
                out.push_back(data[i] ? (t.rank() == 0 ? "True" : " True") : "False");
        } else {
            int width = 0;
            for (const std::int64_t i : indices) {
                out.push_back(std::to_string(std::int64_t(data[i])));
                width = std::max(width, int(out.back().size()));
            }
            for (auto& s : out)
                s = pad(s, width, true);
        }
        return out;
    });
}

// NumPy's _formatArray (numpy/core/arrayprint.py) for str(): the same line breaking, hanging
// indents and summarisation, so that the output matches NumPy's character for character.
class TensorPrinter
{
public:
    TensorPrinter(const Tensor& t, const PrintOptions& options) : m_t(t), m_options(options)
    {
        m_summarise = t.size() > options.threshold;
        m_strides = rowMajorStrides(t.shape());
        // An empty tensor prints as "[]": walking its outer axes (100000000 x 0 has 10^8 rows
        // of nothing) would take forever and hold an index per row.
        if (t.size() != 0) collect(0, 0);
        // collect() walks in row-major order, so m_text comes out sorted by index.
        const auto texts = formatElements(t, m_indices);
        for (std::size_t k = 0; k < m_indices.size(); ++k)
            m_text.emplace_back(m_indices[k], texts[k]);
    }

    std::string print() const
    {
        if (m_t.rank() == 0) return element(0);
        if (m_t.size() == 0) return "[]";
        return render(0, 0, " ", m_options.lineWidth);
    }

private:
    bool summarised(int axis) const
    {
        return m_summarise &&
               2 * std::int64_t(m_options.edgeItems) < m_t.shape()[std::size_t(axis)];
    }

    // The indices along `axis` that are shown.
    std::vector<std::int64_t> shown(int axis) const
    {
        const std::int64_t d = m_t.shape()[std::size_t(axis)];
        std::vector<std::int64_t> list;
        for (std::int64_t j = 0; j < d; ++j) {
            if (summarised(axis) && j == m_options.edgeItems) j = d - m_options.edgeItems;
            list.push_back(j);
        }
        return list;
    }

    void collect(int axis, std::int64_t offset)
    {
        if (axis == m_t.rank()) {
            m_indices.push_back(offset);
            return;
        }
        for (const std::int64_t j : shown(axis))
            collect(axis + 1, offset + j * m_strides[std::size_t(axis)]);
    }

    std::string element(std::int64_t index) const
    {
        const auto it = std::lower_bound(m_text.begin(), m_text.end(),
                                         std::pair<std::int64_t, std::string>(index, ""));
        if (m_options.highlight && m_options.highlight(index))
            return kHighlightOn + it->second + kHighlightOff;
        return it->second;
    }

    // _extendLine: start a new line when the word would pass `width`, unless that cannot help.
    static void extendLine(std::string& s, std::string& line, const std::string& word, int width,
                           const std::string& nextLinePrefix)
    {
        const int lineWidth = displayWidth(line);
        if (lineWidth + displayWidth(word) > width && lineWidth > int(nextLinePrefix.size())) {
            line.erase(line.find_last_not_of(' ') + 1);
            s += line + "\n";
            line = nextLinePrefix;
        }
        line += word;
    }

    std::string render(int axis, std::int64_t offset, const std::string& hangingIndent,
                       int width) const
    {
        const int axesLeft = m_t.rank() - axis;
        const std::string nextIndent = hangingIndent + " ";
        const std::int64_t stride = m_strides[std::size_t(axis)];
        const auto items = shown(axis);
        const std::size_t gap = summarised(axis) ? std::size_t(m_options.edgeItems) : items.size();
        std::string s;
        if (axesLeft == 1) {
            const int elementWidth = width - 1; // room for the closing bracket
            std::string line = hangingIndent;
            for (std::size_t k = 0; k < items.size(); ++k) {
                if (k == gap) {
                    extendLine(s, line, "...", elementWidth, hangingIndent);
                    line += " ";
                }
                extendLine(s, line, element(offset + items[k] * stride), elementWidth,
                           hangingIndent);
                if (k + 1 < items.size()) line += " ";
            }
            s += line;
        } else {
            const std::string lineSeparator(std::size_t(axesLeft - 1), '\n');
            for (std::size_t k = 0; k < items.size(); ++k) {
                if (k == gap) s += hangingIndent + "..." + lineSeparator;
                s += hangingIndent +
                     render(axis + 1, offset + items[k] * stride, nextIndent, width - 1);
                if (k + 1 < items.size()) s += lineSeparator;
            }
        }
        return "[" + s.substr(hangingIndent.size()) + "]";
    }

    const Tensor& m_t;
    const PrintOptions& m_options;
    bool m_summarise = false;
    std::vector<std::int64_t> m_strides;
    std::vector<std::int64_t> m_indices;
    std::vector<std::pair<std::int64_t, std::string>> m_text; ///< sorted by flat index
};

} // namespace

std::string formatTensor(const Tensor& tensor, const PrintOptions& options)
{
    return TensorPrinter(tensor, options).print();
}

std::string compactShape(const Shape& shape)
{
    std::string s = "(";
    for (std::size_t k = 0; k < shape.size(); ++k)
        s += (k ? "," : "") + std::to_string(shape[k]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

int displayWidth(std::string_view text)
{
    int width = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\x1b') {
            while (i < text.size() && text[i] != 'm')
                ++i;
            continue;
        }
        width += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    }
    return width;
}

std::vector<std::string> wrapText(std::string_view text, int width)
{
    std::vector<std::string> lines;
    std::string line;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t start = text.find_first_not_of(' ', i);
        if (start == std::string_view::npos) break;
        std::size_t end = text.find(' ', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view word = text.substr(start, end - start);
        if (!line.empty() && displayWidth(line) + 1 + displayWidth(word) > width) {
            lines.push_back(line);
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
        i = end;
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

void TextTable::addColumn(std::string header, Align align)
{
    m_headers.push_back(std::move(header));
    m_aligns.push_back(align);
}

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(m_headers.size());
    m_rows.push_back(std::move(cells));
}

std::string TextTable::render(const std::string& indent, int width) const
{
    const std::size_t columns = m_headers.size();
    auto cellLines = [](const std::string& cell) {
        std::vector<std::string> lines;
        std::size_t start = 0;
        while (true) {
            const std::size_t end = cell.find('\n', start);
            lines.push_back(
                cell.substr(start, end == std::string::npos ? std::string::npos : end - start));
            if (end == std::string::npos) return lines;
            start = end + 1;
        }
    };
    std::vector<int> widths(columns, 0);
    for (std::size_t c = 0; c < columns; ++c) {
        widths[c] = displayWidth(m_headers[c]);
        for (const auto& row : m_rows)
            for (const auto& line : cellLines(row[c]))
                widths[c] = std::max(widths[c], displayWidth(line));
    }
    int used = displayWidth(indent);
    for (std::size_t c = 0; c + 1 < columns; ++c)
        used += widths[c] + 2;
    const int lastWidth = std::max(24, width - used);
    widths.back() = std::min(widths.back(), lastWidth);

    std::string out;
    auto emitRow = [&](const std::vector<std::string>& cells) {
        std::vector<std::vector<std::string>> lines(columns);
        std::size_t height = 1;
        for (std::size_t c = 0; c < columns; ++c) {
            for (const auto& line : cellLines(cells[c])) {
                if (c + 1 == columns) {
                    // A hanging indent tells a wrapped line from the next line of the cell.
                    const auto wrapped = wrapText(line, lastWidth - 2);
                    for (std::size_t k = 0; k < wrapped.size(); ++k)
                        lines[c].push_back((k ? "  " : "") + wrapped[k]);
                } else {
                    lines[c].push_back(line);
                }
            }
            height = std::max(height, lines[c].size());
        }
        for (std::size_t l = 0; l < height; ++l) {
            std::string text = indent;
            for (std::size_t c = 0; c < columns; ++c) {
                const std::string cell = l < lines[c].size() ? lines[c][l] : "";
                text += pad(cell, widths[c], m_aligns[c] == Align::Right);
                if (c + 1 < columns) text += "  ";
            }
            text.erase(text.find_last_not_of(' ') + 1);
            out += text + "\n";
        }
    };
    emitRow(m_headers);
    for (const auto& row : m_rows)
        emitRow(row);
    return out;
}

} // namespace ss
