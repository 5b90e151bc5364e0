// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/shape.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ss {

/// An op attribute as the caller wrote it: null, bool, integer, float, string or a list of
/// those. The protocol layer builds these from JSON; the core never sees JSON.
class Attr
{
public:
    using List = std::vector<Attr>;
    /// Named members in the order they were written (for results such as `encoding`).
    using Map = std::vector<std::pair<std::string, Attr>>;

    Attr() = default;
    Attr(bool b) : m_value(b) {}
    Attr(int v) : m_value(std::int64_t(v)) {}
    Attr(std::int64_t v) : m_value(v) {}
    Attr(double v) : m_value(v) {}
    Attr(std::string s) : m_value(std::move(s)) {}
    Attr(const char* s) : m_value(std::string(s)) {}
    Attr(List l) : m_value(std::move(l)) {}
    Attr(Map m) : m_value(std::move(m)) {}
    /// A list of integers.
    static Attr ints(const std::vector<std::int64_t>& values);

    bool isNull() const { return std::holds_alternative<std::monostate>(m_value); }
    bool isBool() const { return std::holds_alternative<bool>(m_value); }
    bool isInt() const { return std::holds_alternative<std::int64_t>(m_value); }
    bool isFloat() const { return std::holds_alternative<double>(m_value); }
    bool isNumber() const { return isInt() || isFloat(); }
    bool isString() const { return std::holds_alternative<std::string>(m_value); }
    bool isList() const { return std::holds_alternative<List>(m_value); }
    bool isMap() const { return std::holds_alternative<Map>(m_value); }

    bool toBool() const { return std::get<bool>(m_value); }
    std::int64_t toInt() const { return std::get<std::int64_t>(m_value); }
    double toDouble() const { return isInt() ? double(toInt()) : std::get<double>(m_value); }
    const std::string& toString() const { return std::get<std::string>(m_value); }
    const List& toList() const { return std::get<List>(m_value); }
    const Map& toMap() const { return std::get<Map>(m_value); }

    bool operator==(const Attr& other) const = default;

private:
    std::variant<std::monostate, bool, std::int64_t, double, std::string, List, Map> m_value;
};

using Attrs = std::map<std::string, Attr>;

/// An integer attribute read the way TensorFlow reads an index tensor: its shape (from the
/// list nesting) and its values, row-major. A bare integer is a scalar of shape [].
struct IntTensor
{
    Shape shape;
    std::vector<std::int64_t> values;
};

} // namespace ss
