// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one place for the text the engine builds from values: messages, explanations and code
// (TensorFlow builds its messages with one StrCat; so does this). Every op, framework model,
// reader and the protocol write integers, integer lists and Python floats through these, so the
// same value reads the same everywhere.

#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ss {

/// An integer in decimal: "-9223372036854775808".
std::string num(std::int64_t v);

/// Python's repr() of a float, as TensorFlow's Python-side messages print values: the shortest
/// digits that read back, positional when the decimal exponent is in [-4, 16), scientific (with
/// a two-digit exponent) otherwise; "inf", "-inf", "nan"; "-0.0".
std::string pythonFloatRepr(double v);
/// Python's repr() of a str: single quotes unless the text holds a single quote and no double
/// quote; backslash escapes for the quote, the backslash and every code point Python's
/// str.isprintable() rejects (controls, U+0085, U+2028, unassigned ...). With `bytes`, the
/// repr of the bytes of `text`: b'...', and \xNN for each byte past ASCII as well.
std::string pythonStringRepr(const std::string& text, bool bytes = false);

/// The items of `items`, each written by `write`, between `separator`s: "1, 2, 3".
template <class Range, class Write>
std::string joinText(const Range& items, Write write, std::string_view separator = ", ")
{
    std::string out;
    bool first = true;
    for (const auto& item : items) {
        if (!first) out += separator;
        first = false;
        out += write(item);
    }
    return out;
}

/// A count and its noun, singular for 1: "1 node", "3 nodes", "0 nodes".
std::string countText(std::int64_t count, std::string_view singular, std::string_view plural);

/// Integers between ", ": "1, -2, 3" ("" for none).
std::string joinInts(const std::vector<std::int64_t>& values);
/// An integer list as Python prints it: "[1, -2, 3]", "[]".
std::string listText(const std::vector<std::int64_t>& values);

/// One argument of strCat: a piece of text, a character, or an integer written in decimal.
/// Floats and bools are refused at compile time: say which form they take (pythonFloatRepr,
/// "True"/"False") where they are written.
class StrPiece
{
public:
    StrPiece(std::string_view text) : m_view(text) {}
    StrPiece(const char* text) : m_view(text) {}
    StrPiece(const std::string& text) : m_view(text) {}
    StrPiece(char c) : m_size(1) { m_buffer[0] = c; }
    template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>) StrPiece(T v)
    {
        m_size = std::size_t(std::to_chars(m_buffer, m_buffer + sizeof m_buffer, v).ptr - m_buffer);
    }
    StrPiece(bool) = delete;
    template <std::floating_point T> StrPiece(T) = delete;

    /// The text; a character or an integer is held inside the piece, so it lives as long as it.
    std::string_view view() const { return m_size ? std::string_view(m_buffer, m_size) : m_view; }

private:
    std::string_view m_view;
    char m_buffer[24] = {};
    std::size_t m_size = 0;
};

/// The pieces' texts end to end, with one allocation: strCat("axis ", 3, " of ", name).
std::string strCatPieces(std::initializer_list<std::string_view> pieces);
template <class... Parts> std::string strCat(const Parts&... parts)
{
    return strCatPieces({StrPiece(parts).view()...});
}

} // namespace ss
