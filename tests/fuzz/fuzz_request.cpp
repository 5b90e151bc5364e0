// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: one slicescope-cli request line. Whatever the bytes, the handler must answer with
// exactly one line of JSON that says ok true or false, and the next line must still be answered
// (nothing a line does may poison the handler). Small limits keep each input fast.
#include "core/executor.h"
#include "protocol/json.h"
#include "protocol/request.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void require(bool condition, const char* what, std::string_view response)
{
    if (condition) return;
    std::fprintf(stderr, "fuzz_request: %s\nresponse: %.*s\n", what, int(response.size()),
                 response.data());
    std::abort();
}

void checkResponse(const std::string& response)
{
    require(response.find('\n') == std::string::npos, "a response spans lines", response);
    ss::Json json;
    try {
        json = ss::parseJson(response);
    } catch (...) {
        require(false, "a response is not JSON", response);
    }
    const ss::Json* ok = json.find("ok");
    require(ok && ok->isBool(), "a response has no ok", response);
    if (!ok->toBool()) {
        const ss::Json* error = json.find("error");
        require(error && error->find("code") && error->find("message"),
                "a failed response has no error code and message", response);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static ss::Executor executor(2);
    ss::Limits limits;
    limits.maxElements = 1 << 16;
    limits.maxBytes = 16 << 20;
    ss::RequestHandler handler(executor, limits);
    const std::string line(reinterpret_cast<const char*>(data), size);
    checkResponse(handler.handleLine(line));
    // The handler still answers a good request after whatever came before.
    const std::string next = handler.handleLine(
        R"({"id": 1, "op": "getitem", "inputs": {"input": {"shape": [3, 4], "fill": "arange",)"
        R"( "dtype": "int32"}}, "attrs": {"expr": "x[1:, ::-2]"}})");
    checkResponse(next);
    require(next.find(R"("ok":true)") != std::string::npos,
            "a good request failed after a fuzzed one", next);
    return 0;
}
