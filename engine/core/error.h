// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ss {

/// The protocol's error codes (engine/protocol/README.md, "Error codes").
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
class OpError : public std::runtime_error
{
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

/// TensorFlow's refusal of an int attribute that a kernel reads as int32: "Attr begin_mask has
/// value 2147483648 out of range for an int32". `value` is decimal text, since the Python int
/// behind it may not fit in 64 bits.
[[noreturn]] void int32AttrOutOfRange(std::string_view name, std::string_view value);
/// `value` as the int32 a kernel reads it as, or int32AttrOutOfRange.
std::int32_t int32Attr(std::string_view name, std::int64_t value);
/// The minimum an op definition declares for an int attribute, checked before any kernel runs:
/// "Value for attr 'num_split' of 0 must be at least minimum 1" (invalid_argument).
void checkAttrMinimum(std::string_view name, std::int64_t value, std::int64_t minimum);

} // namespace ss
