// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dtype.h"

#include <array>
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
};

constexpr std::array<DTypeInfo, 9> kInfo{{
    {DType::Bool, "bool", 1, 0, 1},
    {DType::Int8, "int8", 1, -128, 127},
    {DType::UInt8, "uint8", 1, 0, 255},
    {DType::Int16, "int16", 2, -32768, 32767},
    {DType::Int32, "int32", 4, std::numeric_limits<std::int32_t>::min(),
     std::numeric_limits<std::int32_t>::max()},
    {DType::Int64, "int64", 8, std::numeric_limits<std::int64_t>::min(),
     std::numeric_limits<std::int64_t>::max()},
    {DType::Float32, "float32", 4, 0, 0},
    {DType::Float64, "float64", 8, 0, 0},
    {DType::String, "string", int(sizeof(std::string)), 0, 0},
}};

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

std::string_view tfDataTypeString(DType t)
{
    return t == DType::Float32 ? "float" : t == DType::Float64 ? "double" : dtypeName(t);
}

std::optional<DType> dtypeFromName(std::string_view name)
{
    for (const auto& i : kInfo)
        if (i.name == name) return i.type;
    return std::nullopt;
}

} // namespace ss
