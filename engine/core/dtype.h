// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ss {

/// Element types a tensor can hold. Floats are IEEE binary32/binary64; strings are byte strings.
enum class DType : std::uint8_t {
    Bool,
    Int8,
    UInt8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    String
};

/// Bytes one element occupies in a tensor buffer (strings: one std::string object).
int dtypeSize(DType t);
/// The protocol name: "bool", "int8", ..., "string".
std::string_view dtypeName(DType t);
/// TensorFlow's DataTypeString, the name its C++ messages print: "float" for float32, "double"
/// for float64, otherwise the protocol name.
std::string_view tfDataTypeString(DType t);
/// Parses a protocol name; std::nullopt if it is not one.
std::optional<DType> dtypeFromName(std::string_view name);

inline bool isInteger(DType t)
{
    return t == DType::Int8 || t == DType::UInt8 || t == DType::Int16 || t == DType::Int32 ||
           t == DType::Int64;
}
inline bool isFloat(DType t)
{
    return t == DType::Float32 || t == DType::Float64;
}

/// Smallest and largest value of an integer dtype.
std::int64_t integerMin(DType t);
std::int64_t integerMax(DType t);

} // namespace ss
