// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dtype.h"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace ss {

namespace {
struct DTypeInfo
{
    DType type;
    std::string_view name;
    int size;
    std::int64_t min;
    std::int64_t max;
    enum Kind { Bool, Signed, Unsigned, Real, Complex, Text } kind;
};

// The one dtype table: indexed by the enum's value.
constexpr std::array<DTypeInfo, 16> kInfo{{
    {DType::Bool, "bool", 1, 0, 1, DTypeInfo::Bool},
    {DType::Int8, "int8", 1, -128, 127, DTypeInfo::Signed},
    {DType::UInt8, "uint8", 1, 0, 255, DTypeInfo::Unsigned},
    {DType::Int16, "int16", 2, -32768, 32767, DTypeInfo::Signed},
    {DType::Int32, "int32", 4, std::numeric_limits<std::int32_t>::min(),
     std::numeric_limits<std::int32_t>::max(), DTypeInfo::Signed},
    {DType::Int64, "int64", 8, std::numeric_limits<std::int64_t>::min(),
     std::numeric_limits<std::int64_t>::max(), DTypeInfo::Signed},
    {DType::Float32, "float32", 4, 0, 0, DTypeInfo::Real},
    {DType::Float64, "float64", 8, 0, 0, DTypeInfo::Real},
    {DType::String, "string", int(sizeof(std::string)), 0, 0, DTypeInfo::Text},
    {DType::Float16, "float16", 2, 0, 0, DTypeInfo::Real},
    {DType::BFloat16, "bfloat16", 2, 0, 0, DTypeInfo::Real},
    {DType::Complex64, "complex64", 8, 0, 0, DTypeInfo::Complex},
    {DType::Complex128, "complex128", 16, 0, 0, DTypeInfo::Complex},
    {DType::UInt16, "uint16", 2, 0, 65535, DTypeInfo::Unsigned},
    {DType::UInt32, "uint32", 4, 0, std::numeric_limits<std::uint32_t>::max(), DTypeInfo::Unsigned},
    {DType::UInt64, "uint64", 8, 0, std::numeric_limits<std::int64_t>::max(), DTypeInfo::Unsigned},
}};

constexpr bool tableInOrder()
{
    for (std::size_t k = 0; k < kInfo.size(); ++k)
        if (static_cast<std::size_t>(kInfo[k].type) != k) return false;
    return std::size(kAllDTypes) == kInfo.size();
}
static_assert(tableInOrder(), "kInfo is indexed by DType and lists every dtype");

const DTypeInfo& info(DType t)
{
    return kInfo[static_cast<std::size_t>(t)];
}
} // namespace

int dtypeSize(DType t)
{
    return info(t).size;
}
std::string_view dtypeName(DType t)
{
    return info(t).name;
}
std::int64_t integerMin(DType t)
{
    return info(t).min;
}
std::int64_t integerMax(DType t)
{
    return info(t).max;
}
bool isInteger(DType t)
{
    return info(t).kind == DTypeInfo::Signed || info(t).kind == DTypeInfo::Unsigned;
}
bool isUnsigned(DType t)
{
    return info(t).kind == DTypeInfo::Unsigned;
}
bool isFloat(DType t)
{
    return info(t).kind == DTypeInfo::Real;
}
bool isComplex(DType t)
{
    return info(t).kind == DTypeInfo::Complex;
}

std::string_view tfDataTypeString(DType t)
{
    switch (t) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Float16: return "half";
    default: return dtypeName(t);
    }
}

std::optional<DType> dtypeFromName(std::string_view name)
{
    for (const auto& i : kInfo)
        if (i.name == name) return i.type;
    return std::nullopt;
}

std::string dtypeNameList()
{
    std::string s;
    const std::size_t n = std::size(kAllDTypes);
    for (std::size_t k = 0; k < n; ++k) {
        if (k > 0) s += k + 1 == n ? " and " : ", ";
        s += dtypeName(kAllDTypes[k]);
    }
    return s;
}

float toFloat(Float16 h)
{
    const std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16;
    const std::uint32_t exponent = (h.bits >> 10) & 0x1fu;
    const std::uint32_t mantissa = h.bits & 0x3ffu;
    if (exponent == 0) {
        // Zero or subnormal: mantissa * 2^-24, exact in a float.
        const float v = std::ldexp(float(mantissa), -24);
        return sign ? -v : v;
    }
    if (exponent == 31) // infinity or NaN, payload kept in the top mantissa bits
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float toFloat(BFloat16 b)
{
    return std::bit_cast<float>(std::uint32_t(b.bits) << 16);
}

Float16 float16FromDouble(double v)
{
    const auto d = std::bit_cast<std::uint64_t>(v);
    const auto sign = std::uint16_t((d >> 48) & 0x8000u);
    const std::int64_t biased = std::int64_t((d >> 52) & 0x7ff);
    const std::uint64_t mantissa = d & ((std::uint64_t(1) << 52) - 1);
    if (biased == 0x7ff) {
        if (mantissa == 0) return {std::uint16_t(sign | 0x7c00u)};
        // NaN: the payload's top bits, and quiet, as NumPy keeps them.
        return {std::uint16_t(sign | 0x7e00u | (mantissa >> 42))};
    }
    if (biased == 0) return {sign}; // zero or a double subnormal, far below half's smallest
    const std::int64_t e = biased - 1023;
    if (e > 15) return {std::uint16_t(sign | 0x7c00u)};
    const std::uint64_t significand = mantissa | (std::uint64_t(1) << 52);
    // The result's bits before rounding, and how many low bits of the significand are dropped.
    std::uint64_t bits;
    int shift;
    if (e >= -14) {
        shift = 42;
        bits = (std::uint64_t(e + 15) << 10) | (mantissa >> 42);
    } else {
        shift = int(28 - e); // subnormal: significand * 2^(e - 52) in units of 2^-24
        if (shift > 63) return {sign};
        bits = significand >> shift;
    }
    const std::uint64_t rest = significand & ((std::uint64_t(1) << shift) - 1);
    const std::uint64_t half = std::uint64_t(1) << (shift - 1);
    if (rest > half || (rest == half && (bits & 1))) ++bits; // a carry moves into the exponent
    if (bits >= 0x7c00u) bits = 0x7c00u;
    return {std::uint16_t(sign | bits)};
}

BFloat16 bfloat16FromDouble(double v)
{
    const auto u = std::bit_cast<std::uint32_t>(float(v));
    if (std::isnan(float(v))) return {std::uint16_t((u >> 16) | 0x40u)}; // quiet
    const std::uint32_t bias = 0x7fffu + ((u >> 16) & 1u);
    return {std::uint16_t((u + bias) >> 16)};
}

std::string shortestDecimal(double value, DType t)
{
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buf[64];
    if (t == DType::Float32) {
        const auto r = std::to_chars(buf, buf + sizeof buf, float(value));
        return std::string(buf, r.ptr);
    }
    if (t == DType::Float16 || t == DType::BFloat16) {
        const auto same = [&](double x) {
            return t == DType::Float16 ? float16FromDouble(x) == float16FromDouble(value)
                                       : bfloat16FromDouble(x) == bfloat16FromDouble(value);
        };
        for (int digits = 1; digits < 17; ++digits) {
            const auto r = std::to_chars(buf, buf + sizeof buf, value,
                                         std::chars_format::scientific, digits - 1);
            double back = 0;
            std::from_chars(buf, r.ptr, back);
            // The double nearest the short decimal prints as that decimal in the shortest form.
            if (same(back)) return std::string(buf, std::to_chars(buf, buf + sizeof buf, back).ptr);
        }
    }
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, r.ptr);
}

} // namespace ss
