// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ss {

/// Element types a tensor can hold. Floats are IEEE binary16/32/64 and bfloat16 (the top half
/// of a binary32); complex numbers are two floats (real, imaginary); strings are byte strings.
/// New dtypes are appended, so that the numbers of the older ones never change.
enum class DType : std::uint8_t {
    Bool,
    Int8,
    UInt8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    String,
    Float16,
    BFloat16,
    Complex64,
    Complex128,
    UInt16,
    UInt32,
    UInt64
};

/// Every dtype, in the order people are shown them (the dtype pickers, error messages).
inline constexpr DType kAllDTypes[] = {
    DType::Bool,    DType::Int8,      DType::UInt8,      DType::Int16,
    DType::UInt16,  DType::Int32,     DType::UInt32,     DType::Int64,
    DType::UInt64,  DType::Float16,   DType::BFloat16,   DType::Float32,
    DType::Float64, DType::Complex64, DType::Complex128, DType::String};

/// An IEEE binary16 value (NumPy's float16, TensorFlow's half), held as its bits.
struct Float16
{
    std::uint16_t bits = 0;
    friend bool operator==(Float16, Float16) = default; ///< bitwise (not IEEE) equality
};
/// A bfloat16 value (the top 16 bits of a binary32), held as its bits.
struct BFloat16
{
    std::uint16_t bits = 0;
    friend bool operator==(BFloat16, BFloat16) = default; ///< bitwise (not IEEE) equality
};

/// The value of a float16 (exact: every float16 is a float).
float toFloat(Float16 h);
/// The value of a bfloat16 (exact).
float toFloat(BFloat16 b);
/// The float16 nearest `v`, ties to even, rounded once from the double as NumPy's astype does;
/// beyond the largest finite value (65504) it is infinity; NaN stays NaN.
Float16 float16FromDouble(double v);
/// The bfloat16 nearest `v` through float32 (ties to even), as TensorFlow and ml_dtypes convert.
BFloat16 bfloat16FromDouble(double v);

/// The shortest decimal that reads back as the same value of the real float dtype `t` (float16,
/// bfloat16, float32, float64): "0.1" for the float16 nearest 0.1, not the 0.0999755859375 it
/// holds. Written as std::to_chars writes the shortest form ("1e-05", "65504"); infinities and NaN
/// are "inf", "-inf", "nan". `value` must be a value of `t`.
std::string shortestDecimal(double value, DType t);

/// Bytes one element occupies in a tensor buffer (strings: one std::string object).
int dtypeSize(DType t);
/// The protocol name: "bool", "int8", ..., "complex128", "string" (NumPy's names).
std::string_view dtypeName(DType t);
/// TensorFlow's DataTypeString, the name its C++ messages print: "float" for float32, "double"
/// for float64, "half" for float16, otherwise the protocol name.
std::string_view tfDataTypeString(DType t);
/// Parses a protocol name; std::nullopt if it is not one.
std::optional<DType> dtypeFromName(std::string_view name);
/// Every protocol name, as a message lists them: "bool, int8, ..., complex128 and string".
std::string dtypeNameList();

/// Signed and unsigned integers (not bool).
bool isInteger(DType t);
bool isUnsigned(DType t);
/// Real floating point: float16, bfloat16, float32, float64.
bool isFloat(DType t);
/// complex64 and complex128.
bool isComplex(DType t);

/// Smallest and largest value of an integer dtype. uint64's largest is given as 2^63 - 1, the
/// largest an int64 holds (values beyond it are read and written as uint64 where they occur).
std::int64_t integerMin(DType t);
std::int64_t integerMax(DType t);

} // namespace ss
