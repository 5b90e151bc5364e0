// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the protocol suites: one executor, a request handler that answers a line with a
// parsed response, and readable failure output for std::string comparisons.
#pragma once

#include "core/executor.h"
#include "protocol/json.h"
#include "protocol/request.h"

#include <QTest>

#include <string>
#include <string_view>

namespace QTest {
template <> inline char* toString(const std::string& s)
{
    return qstrdup(s.c_str());
}
} // namespace QTest

namespace ss::testing {

inline Executor& testExecutor()
{
    static Executor executor(2);
    return executor;
}

/// Compact JSON text of a value.
inline std::string compact(const Json& json)
{
    std::string s;
    JsonWriter(s).value(json);
    return s;
}

/// The response line for `line`, checked to be one line of JSON, parsed.
inline Json respond(std::string_view line, const Limits& limits = Limits::machineDefault())
{
    RequestHandler handler(testExecutor(), limits);
    const std::string text = handler.handleLine(line);
    if (text.find('\n') != std::string::npos)
        throw std::runtime_error("response spans several lines: " + text);
    return parseJson(text);
}

/// The error code of a response ("" if it succeeded).
inline std::string errorCode(const Json& response)
{
    const Json* error = response.find("error");
    return error ? error->find("code")->toString() : std::string();
}

inline std::string errorMessage(const Json& response)
{
    const Json* error = response.find("error");
    return error ? error->find("message")->toString() : std::string();
}

} // namespace ss::testing
