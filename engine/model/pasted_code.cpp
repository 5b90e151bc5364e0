// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/pasted_code.h"

#include "core/error.h"
#include "model/graphdef_ops.h"
#include "model/graphdef_reader.h"

#include <cctype>

namespace ss::model {

namespace {

std::string_view trimmedStart(std::string_view text)
{
    std::size_t at = 0;
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
        ++at;
    return text.substr(at);
}

// The character position of `needle` in `text` (its first occurrence), or 0.
int positionOf(std::string_view text, std::string_view needle)
{
    const std::size_t at = text.find(needle);
    if (at == std::string_view::npos) return 0;
    int position = 0;
    for (std::size_t i = 0; i < at; ++i)
        position += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    return position;
}

[[noreturn]] void failAt(std::string_view text, std::string_view needle, const std::string& why)
{
    const int position = positionOf(text, needle);
    throw OpError(ErrorCode::ParseError,
                  why + " (at position " + std::to_string(position) + ": '" + std::string(needle) +
                      "')",
                  position);
}

} // namespace

bool looksLikeNodeText(std::string_view text)
{
    const std::string_view t = trimmedStart(text);
    for (const std::string_view start : {"node", "name", "op"}) {
        if (!t.starts_with(start)) continue;
        const std::string_view rest = trimmedStart(t.substr(start.size()));
        if (rest.starts_with(start == "node" ? "{" : ":")) return true;
    }
    return false;
}

bool looksLikePastedCode(std::string_view text)
{
    return looksLikeNodeText(text) || looksLikeCall(text);
}

CallTranslation translatePastedCode(std::string_view text, const std::optional<Shape>& inputShape)
{
    if (!looksLikeNodeText(text)) return translateCall(text, inputShape);
    ModelFile file = readGraphDefText(std::string(text));
    if (file.nodes.empty())
        failAt(text, "op:",
               "the node text holds no op of the slicing family SliceScope reads (StridedSlice, "
               "Slice, GatherV2, Pad, ...)");
    if (file.nodes.size() > 1) {
        std::string names;
        for (const ModelNode& n : file.nodes)
            names += (names.empty() ? "" : ", ") + n.name + " (" + n.op + ")";
        failAt(text, "\"" + file.nodes[1].name + "\"",
               "the node text holds " + std::to_string(file.nodes.size()) +
                   " nodes of the slicing family (" + names +
                   "): paste one, with its Const "
                   "inputs");
    }
    ModelNode& node = file.nodes.front();
    // The first input is the tensor sliced: the caller's. The text rarely holds its Placeholder,
    // so it gets the caller's shape (or any) to let the node translate; its values are never used.
    if (!node.inputs.empty() && !node.inputs[0].constant) {
        ModelValue& data = node.inputs[0];
        if (!data.stored.hasRank) {
            data.stored = StoredShape::known(inputShape.value_or(Shape{1}));
            data.storedFrom = "the input";
        }
        if (!data.dtype && data.dtypeText.empty()) data.dtype = DType::Float32;
        translateGraphDefNode(node);
    }
    for (std::size_t k = 1; k < node.inputs.size(); ++k) {
        const ModelValue& v = node.inputs[k];
        if (!v.name.empty() && !v.constant && !v.dtype && v.dtypeText.empty())
            failAt(text, "\"" + v.name + "\"",
                   "node " + node.name + ": its input '" + v.name +
                       "' is not in the text; paste the Const node that gives it");
    }
    if (!node.request)
        failAt(text, "\"" + node.op + "\"", "node " + node.name + ": " + node.reason);
    CallTranslation t;
    t.op = node.request->op;
    t.attrs = node.request->attrs;
    t.function = node.op + " node '" + node.name + "'";
    t.tensor = node.inputs.empty() ? std::string() : node.inputs[0].name;
    for (std::size_t k = 1; k < node.request->inputs.size(); ++k) {
        const auto& [name, tensors] = node.request->inputs[k];
        if (tensors.size() != 1 || !tensors[0].value)
            failAt(text, "\"" + node.op + "\"",
                   "node " + node.name + ": its input " + name +
                       " is computed at run time; paste the Const node that gives it");
        t.givenInputs.emplace_back(name, *tensors[0].value);
    }
    if (!node.reason.empty()) t.notes.push_back(node.reason);
    return t;
}

} // namespace ss::model
