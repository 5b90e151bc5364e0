// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/strings.h"

#include <cctype>
#include <cmath>

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

std::string pythonStringRepr(const std::string& text, bool bytes)
{
    const bool useDouble =
        text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
    const char quote = useDouble ? '"' : '\'';
    std::string out = bytes ? "b" : "";
    out += quote;
    for (unsigned char c : text) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c == quote) {
                out += '\\';
                out += char(c);
            } else if (c < 0x20 || c == 0x7f || (bytes && c > 0x7f)) {
                const char* hex = "0123456789abcdef";
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += char(c);
            }
        }
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
