// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as one request line. The handler must answer with exactly one line of
// JSON holding "ok", and must neither crash nor trip a sanitizer.
#include "core/executor.h"
#include "protocol/json.h"
#include "protocol/request.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static ss::Executor executor(1);
    static const ss::Limits limits = [] {
        ss::Limits l = ss::Limits::machineDefault();
        l.maxElements = 1 << 16; // keep every run fast
        return l;
    }();
    ss::RequestHandler handler(executor, limits);
    const std::string response =
        handler.handleLine(std::string_view(reinterpret_cast<const char*>(data), size));
    if (response.find('\n') != std::string::npos) std::abort();
    const ss::Json r = ss::parseJson(response); // an exception here is a finding too
    if (!r.isObject() || !r.find("ok") || !r.find("id")) std::abort();
    return 0;
}
