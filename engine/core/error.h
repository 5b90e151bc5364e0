// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ss {

/// The protocol's error codes (protocol.md, "Error codes").
enum class ErrorCode {
    BadRequest,
    ParseError,
    InvalidArgument,
    OutOfRange,
    ResourceExhausted,
    Unimplemented,
    Cancelled,
    Internal,
};

/// "bad_request", "invalid_argument", ...
std::string_view errorCodeName(ErrorCode code);

/// What every engine function throws when it refuses its input. The message is TensorFlow's
/// kernel wording where it has one; `position` is set for slice-expression parse errors.
class OpError : public std::runtime_error {
public:
    OpError(ErrorCode code, const std::string& message, std::optional<int> position = {})
        : std::runtime_error(message), m_code(code), m_position(position)
    {
    }
    ErrorCode code() const { return m_code; }
    std::optional<int> position() const { return m_position; }

private:
    ErrorCode m_code;
    std::optional<int> m_position;
};

[[noreturn]] inline void invalidArgument(const std::string& message)
{
    throw OpError(ErrorCode::InvalidArgument, message);
}
[[noreturn]] inline void outOfRange(const std::string& message)
{
    throw OpError(ErrorCode::OutOfRange, message);
}
[[noreturn]] inline void unimplemented(const std::string& message)
{
    throw OpError(ErrorCode::Unimplemented, message);
}
[[noreturn]] inline void badRequest(const std::string& message)
{
    throw OpError(ErrorCode::BadRequest, message);
}

} // namespace ss
