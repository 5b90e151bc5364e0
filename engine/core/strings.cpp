// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/strings.h"

#include "core/python_nonprintable.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <utility>

namespace ss {

std::string num(std::int64_t v)
{
    return std::to_string(v);
}

std::string pythonFloatRepr(double v)
{
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (std::isnan(v)) return "nan"; // to_chars writes no exponent for it
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string sci(buf, end);
    const std::size_t e = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, e))
        if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
    const bool negative = sci[0] == '-';
    const int exponent = std::stoi(sci.substr(e + 1));
    std::string out = negative ? "-" : "";
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out += "0." + std::string(std::size_t(-exponent - 1), '0') + digits;
        } else {
            const std::size_t whole = std::size_t(exponent) + 1;
            if (digits.size() <= whole)
                out += digits + std::string(whole - digits.size(), '0') + ".0";
            else
                out += digits.substr(0, whole) + "." + digits.substr(whole);
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    const int magnitude = std::abs(exponent);
    return out + (exponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") +
           std::to_string(magnitude);
}

namespace {

bool pythonPrintable(char32_t cp)
{
    const auto* end = std::end(kPythonNonPrintable);
    const auto* range = std::upper_bound(std::begin(kPythonNonPrintable), end, cp,
                                         [](char32_t c, const auto& r) { return c < r[0]; });
    return range == std::begin(kPythonNonPrintable) || cp > range[-1][1];
}

// The UTF-8 sequence at text[i] as one code point and its length; a byte that starts no valid
// sequence is itself with length 1 (text never holds one; it is escaped if it does).
std::pair<char32_t, std::size_t> codePointAt(const std::string& text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const std::size_t n = lead < 0x80    ? 1
                          : lead >= 0xF5 ? 0
                          : lead >= 0xF0 ? 4
                          : lead >= 0xE0 ? 3
                          : lead >= 0xC2 ? 2
                                         : 0;
    if (n <= 1 || i + n > text.size()) return {lead, 1};
    char32_t cp = lead & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return {lead, 1};
        cp = cp << 6 | (byte(i + k) & 0x3F);
    }
    return {cp, n};
}

} // namespace

std::string pythonStringRepr(const std::string& text, bool bytes)
{
    const bool useDouble =
        text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
    const char quote = useDouble ? '"' : '\'';
    std::string out = bytes ? "b" : "";
    out += quote;
    for (std::size_t i = 0; i < text.size();) {
        // Bytes escape every byte past ASCII; text every code point Python does not print.
        const auto [cp, length] =
            bytes ? std::pair<char32_t, std::size_t>{static_cast<unsigned char>(text[i]), 1}
                  : codePointAt(text, i);
        switch (cp) {
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (cp == char32_t(quote)) {
                out += '\\';
                out += quote;
            } else if ((cp >= 0x80 && (bytes || length == 1)) || !pythonPrintable(cp)) {
                const char* hex = "0123456789abcdef";
                const int digits = cp < 0x100 ? 2 : cp < 0x10000 ? 4 : 8;
                out += digits == 2 ? "\\x" : digits == 4 ? "\\u" : "\\U";
                for (int d = digits - 1; d >= 0; --d)
                    out += hex[(cp >> (4 * d)) & 15];
            } else {
                out.append(text, i, length);
            }
        }
        i += length;
    }
    return out + quote;
}

std::string countText(std::int64_t count, std::string_view singular, std::string_view plural)
{
    return num(count) + " " + std::string(count == 1 ? singular : plural);
}

std::string joinInts(const std::vector<std::int64_t>& values)
{
    return joinText(values, num);
}

std::string listText(const std::vector<std::int64_t>& values)
{
    return "[" + joinInts(values) + "]";
}

std::string strCatPieces(std::initializer_list<std::string_view> pieces)
{
    std::size_t size = 0;
    for (std::string_view p : pieces)
        size += p.size();
    std::string out;
    out.reserve(size);
    for (std::string_view p : pieces)
        out += p;
    return out;
}

} // namespace ss
