// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/error.h"

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

} // namespace ss
