// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/shape_text.h"

#include "core/error.h"

#include <charconv>
#include <string>

namespace ss {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// The length of the explicit separator at the start of `s` (",", "x", "×"), else 0.
std::size_t separatorLength(std::string_view s)
{
    if (s.starts_with(',') || s.starts_with('x') || s.starts_with('X')) return 1;
    if (s.starts_with("\xC3\x97")) return 2; // ×, U+00D7
    return 0;
}

} // namespace

Shape parseShape(std::string_view text)
{
    const std::string quoted = "'" + std::string(text) + "'";
    auto refuse = [&](const std::string& why) -> Shape {
        badRequest(quoted + " is not a shape: " + why +
                   " (give sizes such as 5,6 or 5 6 or (5, 6); '' or () for a scalar)");
    };
    std::string_view s = trimmed(text);
    const bool opens = s.starts_with('(') || s.starts_with('[');
    const bool closes = s.ends_with(')') || s.ends_with(']');
    if (opens != closes || (opens && s.size() < 2)) return refuse("unmatched brackets");
    if (opens) {
        if ((s.front() == '(') != (s.back() == ')')) return refuse("unmatched brackets");
        s = trimmed(s.substr(1, s.size() - 2));
    }
    Shape shape;
    while (!s.empty()) {
        std::int64_t size = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), size);
        if (end == s.data())
            return refuse(separatorLength(s) ? "a size is missing" : "sizes are whole numbers");
        if (ec == std::errc::result_out_of_range) return refuse("a size is too large");
        if (size < 0) return refuse("a size cannot be negative");
        shape.push_back(size);
        if (shape.size() > std::size_t(kMaxRank))
            return refuse("tensors have rank 0 to " + std::to_string(kMaxRank));
        if (!checkedNumElements(shape))
            return refuse("the sizes multiply past 2^63 - 1 elements, too big for any array (a "
                          "size of 0 does not make it an empty one)");
        s.remove_prefix(std::size_t(end - s.data()));
        // One separator: spaces, or spaces around one explicit separator.
        const std::string_view before = s;
        s = trimmed(s);
        if (const std::size_t n = separatorLength(s)) {
            s = trimmed(s.substr(n));
            // "(5,)" is Python's one-element tuple; a separator before nothing is allowed once.
            if (s.empty()) break;
        } else if (s.size() == before.size() && !s.empty()) {
            return refuse("sizes are whole numbers");
        }
    }
    return shape;
}

} // namespace ss
