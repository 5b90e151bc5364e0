// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: code pasted into the CLI or the window (a Python slicing call, chained subscripts,
// TensorFlow node text), as `slicescope-cli eval` and the expression field read it. The first
// byte picks the shape of the tensor sliced (none, or one of a few ranks); the rest is the text.
// Any text either reads as an op the registry has, or throws parse_error with a position inside
// the text (or at its end), or another OpError (a value the op refuses): never anything else.
#include "core/error.h"
#include "core/op.h"
#include "model/pasted_code.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace {

[[noreturn]] void fail(const char* what, std::string_view text)
{
    std::fprintf(stderr, "fuzz_call: %s\ninput: %.*s\n", what, int(text.size()), text.data());
    std::abort();
}

std::optional<ss::Shape> shapeFor(std::uint8_t pick)
{
    switch (pick % 5) {
    case 0: return std::nullopt;
    case 1: return ss::Shape{};
    case 2: return ss::Shape{7};
    case 3: return ss::Shape{3, 4};
    default: return ss::Shape{2, 0, 5, 1};
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) return 0;
    const std::optional<ss::Shape> shape = shapeFor(data[0]);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const ss::CallTranslation call = ss::model::translatePastedCode(text, shape);
        if (!ss::findOp(call.op)) fail("read as an op the registry does not have", text);
    } catch (const ss::OpError& e) {
        if (e.code() == ss::ErrorCode::ParseError) {
            const auto position = e.position();
            if (position && (*position < 0 || std::size_t(*position) > text.size()))
                fail("a parse error points outside the text", text);
        }
    }
    return 0;
}
