// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the subscript parser, the encoder and to_expr. Any text either parses or throws
// parse_error with a position inside it (or at its end); a subscript that encodes goes back
// through to_expr to an expression in canonical form: to_expr of its own encoding is itself.
#include "core/error.h"
#include "core/slice_expr.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void fail(const char* what, std::string_view text)
{
    std::fprintf(stderr, "fuzz_subscript: %s\ninput: %.*s\n", what, int(text.size()), text.data());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ss::Subscript subscript;
    try {
        subscript = ss::parseSubscript(text);
    } catch (const ss::OpError& e) {
        if (e.code() != ss::ErrorCode::ParseError) fail("parse failed without parse_error", text);
        const auto position = e.position();
        if (!position || *position < 0 || std::size_t(*position) > text.size())
            fail("a parse error points outside the text", text);
        return 0;
    }
    ss::Encoding encoding;
    try {
        encoding = ss::encodeSubscript(subscript);
    } catch (const ss::OpError& e) {
        if (e.code() != ss::ErrorCode::InvalidArgument) fail("encoding failed oddly", text);
        return 0;
    }
    std::string expr;
    try {
        expr = ss::toExpr(encoding.sparse);
    } catch (const ss::OpError& e) {
        if (e.code() != ss::ErrorCode::InvalidArgument) fail("to_expr failed oddly", text);
        return 0;
    }
    try {
        if (ss::toExpr(ss::encodeExpression(expr).sparse) != expr)
            fail("to_expr is not canonical", text);
    } catch (const ss::OpError&) {
        fail("to_expr wrote an expression that does not encode", text);
    }
    return 0;
}
