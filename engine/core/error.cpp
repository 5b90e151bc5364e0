// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/error.h"

#include <limits>

namespace ss {

std::string_view errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::BadRequest: return "bad_request";
    case ErrorCode::ParseError: return "parse_error";
    case ErrorCode::InvalidArgument: return "invalid_argument";
    case ErrorCode::OutOfRange: return "out_of_range";
    case ErrorCode::ResourceExhausted: return "resource_exhausted";
    case ErrorCode::Unimplemented: return "unimplemented";
    case ErrorCode::Cancelled: return "cancelled";
    case ErrorCode::Internal: break;
    }
    return "internal";
}

void int32AttrOutOfRange(std::string_view name, std::string_view value)
{
    invalidArgument("Attr " + std::string(name) + " has value " + std::string(value) +
                    " out of range for an int32");
}

std::int32_t int32Attr(std::string_view name, std::int64_t value)
{
    if (value < std::numeric_limits<std::int32_t>::min() ||
        value > std::numeric_limits<std::int32_t>::max())
        int32AttrOutOfRange(name, std::to_string(value));
    return std::int32_t(value);
}

void checkAttrMinimum(std::string_view name, std::int64_t value, std::int64_t minimum)
{
    if (value < minimum)
        invalidArgument("Value for attr '" + std::string(name) + "' of " + std::to_string(value) +
                        " must be at least minimum " + std::to_string(minimum));
}

} // namespace ss
