// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/op_equivalents.h"

#include "core/error.h"
#include "core/ops/common.h"
#include "core/slice_expr.h"
#include "core/strings.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <utility>

namespace ss {

namespace {

// The template language is described at Equivalent (core/op.h). The filters:
//   lower       a string attribute in lower case
//   torch_pad   paddings as PyTorch wants them (last dimension first, flattened, outer unpadded
//               dimensions left out)
//   flat        paddings flattened in dimension order
//   onnx_pads   paddings as ONNX wants them (every before, then every after)
//   box         slice's begin, with its size, as a subscript's slices ("1:3, 1:")
//   onnx_ends   slice's begin plus its size: ONNX Slice's ends (a size of -1 is the end)
//   sizes       split's count or sizes as a list of sizes along its axis (-1 and a count in
//               terms of x.shape)
//   cuts        split's count, or the indices where its pieces start (np.split's reading)
//   outputs     one output name per piece of split: ["y_0", "y_1", ...]

std::string pyLiteral(const Attr& a)
{
    if (a.isNull()) return "None";
    if (a.isBool()) return a.toBool() ? "True" : "False";
    if (a.isInt()) return std::to_string(a.toInt());
    if (a.isFloat()) return pythonFloatRepr(a.toDouble());
    if (a.isString()) return pythonStringRepr(a.toString());
    std::string t = "[";
    if (a.isList()) {
        const auto& l = a.toList();
        for (std::size_t k = 0; k < l.size(); ++k)
            t += (k ? ", " : "") + pyLiteral(l[k]);
    }
    return t + "]";
}

std::vector<std::int64_t> paddingPairs(const Attr& a, const std::string& op)
{
    const IntTensor t = toIntTensor(a, "paddings");
    if (t.shape.size() != 2 || t.shape[1] != 2)
        badRequest("op '" + op + "': paddings must be a list of [before, after] pairs");
    return t.values;
}

std::string upper(std::string s)
{
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// The call's value of attribute `name`, given under its name or an alias; null if not given.
const Attr* attrValue(const OpDef& op, const Attrs& attrs, const std::string& name)
{
    for (const AttrDef& d : op.attrs) {
        if (d.name != name) continue;
        if (auto it = attrs.find(name); it != attrs.end()) return &it->second;
        for (const auto& alias : d.aliases)
            if (auto it = attrs.find(alias); it != attrs.end()) return &it->second;
    }
    return nullptr;
}

// Whether an equivalent restricted to some calls (pad's modes) applies to this one.
bool applies(const Equivalent& e, const OpDef& op, const Attrs& attrs)
{
    if (e.whenAttr.empty()) return true;
    const Attr* a = attrValue(op, attrs, e.whenAttr);
    const std::string given = !a              ? e.whenDefault
                              : a->isString() ? a->toString()
                              : a->isInt()    ? std::to_string(a->toInt())
                                              : std::string();
    return upper(given) == upper(e.whenValue);
}

std::int64_t intAttrOr(const OpDef& op, const Attrs& attrs, const std::string& name,
                       std::int64_t fallback)
{
    const Attr* a = attrValue(op, attrs, name);
    if (!a) return fallback;
    const IntTensor t = toIntTensor(*a, name);
    if (!t.shape.empty()) badRequest("op '" + op.name + "': " + name + " must be an integer");
    return t.values[0];
}

std::vector<std::int64_t> flatInts(const Attr& a, const std::string& name)
{
    return toIntTensor(a, name).values;
}

// slice's begin and size, read as slice reads them: one of each per dimension.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>
boxArgs(const Attr& begin, const OpDef& op, const Attrs& attrs)
{
    const Attr* sizeAttr = attrValue(op, attrs, "size");
    if (!sizeAttr) badRequest("op '" + op.name + "' needs attribute 'size' for this code");
    auto b = flatInts(begin, "begin");
    auto sizes = flatInts(*sizeAttr, "size");
    if (b.size() != sizes.size())
        badRequest("op '" + op.name + "': begin and size must have the same length");
    return {std::move(b), std::move(sizes)};
}

// split's pieces: the count (empty sizes) or the listed sizes, and the axis they cut.
struct Pieces
{
    std::int64_t count = 0;
    std::vector<std::int64_t> sizes;
    std::string extent; ///< "x.shape[axis]"
};

Pieces splitPieces(const Attr& value, const OpDef& op, const Attrs& attrs)
{
    Pieces p;
    p.extent = "x.shape[" + std::to_string(intAttrOr(op, attrs, "axis", 0)) + "]";
    const IntTensor t = toIntTensor(value, "num_or_size_splits");
    if (t.shape.empty()) {
        p.count = t.values[0];
        if (p.count < 1) badRequest("op '" + op.name + "': the count of pieces must be positive");
    } else {
        p.sizes = t.values;
        p.count = std::int64_t(p.sizes.size());
    }
    return p;
}

// The Python for each piece's size (a -1 size is what the others leave).
std::vector<std::string> pieceSizes(const Pieces& p)
{
    std::vector<std::string> out;
    if (p.sizes.empty()) {
        for (std::int64_t k = 0; k < p.count; ++k)
            out.push_back(p.extent + " // " + std::to_string(p.count));
        return out;
    }
    std::int64_t known = 0;
    for (std::int64_t s : p.sizes)
        if (s != -1) known += s;
    for (std::int64_t s : p.sizes)
        out.push_back(s != -1 ? std::to_string(s)
                              : p.extent + (known ? " - " + std::to_string(known) : ""));
    return out;
}

std::string pyList(const std::vector<std::string>& items)
{
    std::string out = "[";
    for (std::size_t k = 0; k < items.size(); ++k)
        out += (k ? ", " : "") + items[k];
    return out + "]";
}

std::string applyFilter(const std::string& filter, const Attr& value, const OpDef& op,
                        const Attrs& attrs)
{
    if (filter == "lower" && value.isString()) {
        std::string s = value.toString();
        for (char& c : s)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        return pythonStringRepr(s);
    }
    if (filter == "torch_pad" || filter == "flat" || filter == "onnx_pads") {
        const auto pairs = paddingPairs(value, op.name);
        const std::size_t r = pairs.size() / 2;
        std::vector<std::int64_t> v;
        if (filter == "torch_pad") {
            // Outer dimensions that are not padded are left out: PyTorch's reflect mode
            // counts the padded dimensions from the list's length.
            std::size_t outer = 0;
            while (outer + 1 < r && pairs[2 * outer] == 0 && pairs[2 * outer + 1] == 0)
                ++outer;
            for (std::size_t d = r; d-- > outer;) {
                v.push_back(pairs[2 * d]);
                v.push_back(pairs[2 * d + 1]);
            }
        } else if (filter == "flat") {
            v = pairs;
        } else { // ONNX: all befores, then all afters
            for (std::size_t d = 0; d < r; ++d)
                v.push_back(pairs[2 * d]);
            for (std::size_t d = 0; d < r; ++d)
                v.push_back(pairs[2 * d + 1]);
        }
        return listText(v);
    }
    if (filter == "box") {
        const auto [begin, sizes] = boxArgs(value, op, attrs);
        if (begin.empty()) return "()";
        std::string out;
        for (std::size_t d = 0; d < begin.size(); ++d) {
            out += (d ? ", " : "") + std::to_string(begin[d]) + ":";
            if (sizes[d] != -1) out += std::to_string(begin[d] + sizes[d]);
        }
        return out;
    }
    if (filter == "onnx_ends") {
        const auto [begin, sizes] = boxArgs(value, op, attrs);
        std::vector<std::int64_t> ends;
        for (std::size_t d = 0; d < begin.size(); ++d)
            ends.push_back(sizes[d] == -1 ? std::numeric_limits<std::int64_t>::max()
                                          : begin[d] + sizes[d]);
        return listText(ends);
    }
    if (filter == "sizes") return pyList(pieceSizes(splitPieces(value, op, attrs)));
    if (filter == "cuts") {
        const Pieces p = splitPieces(value, op, attrs);
        if (p.sizes.empty()) return std::to_string(p.count);
        // Where each piece after the first starts: counted from the front up to a -1 size,
        // from the end after it (its length is what the others leave).
        std::vector<std::string> cuts;
        const auto unknown = std::find(p.sizes.begin(), p.sizes.end(), -1) - p.sizes.begin();
        for (std::size_t k = 1; k < p.sizes.size(); ++k) {
            std::int64_t before = 0;
            std::int64_t after = 0;
            for (std::size_t j = 0; j < p.sizes.size(); ++j)
                (j < k ? before : after) += p.sizes[j] == -1 ? 0 : p.sizes[j];
            cuts.push_back(std::ptrdiff_t(k) <= unknown
                               ? std::to_string(before)
                               : p.extent + (after ? " - " + std::to_string(after) : ""));
        }
        return pyList(cuts);
    }
    if (filter == "outputs") {
        const Pieces p = splitPieces(value, op, attrs);
        std::vector<std::string> names;
        for (std::int64_t k = 0; k < p.count; ++k)
            names.push_back("\"y_" + std::to_string(k) + "\"");
        return pyList(names);
    }
    if (!filter.empty()) throw OpError(ErrorCode::Internal, "unknown template filter " + filter);
    return pyLiteral(value);
}

// `{args}`: every input by position, then every given attribute as a keyword.
std::string callArgs(const OpDef& op, const Attrs& attrs)
{
    std::string args;
    for (std::size_t k = 0; k < op.inputs.size(); ++k)
        args += (k ? ", " : "") + op.inputs[k].name;
    for (const auto& [name, value] : attrs)
        args += (args.empty() ? "" : ", ") + name + "=" + pyLiteral(value);
    return args;
}

std::string render(const std::string& tmpl, const OpDef& op, const Attrs& attrs)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < tmpl.size()) {
        const std::size_t open = tmpl.find('{', pos);
        if (open == std::string::npos) {
            out += tmpl.substr(pos);
            break;
        }
        const std::size_t close = tmpl.find('}', open);
        out += tmpl.substr(pos, open - pos);
        std::string field = tmpl.substr(open + 1, close - open - 1);
        pos = close + 1;
        if (field == "args") {
            out += callArgs(op, attrs);
            continue;
        }
        std::string fallback;
        bool hasFallback = false;
        if (const auto eq = field.find('='); eq != std::string::npos) {
            fallback = field.substr(eq + 1);
            field = field.substr(0, eq);
            hasFallback = true;
        }
        std::string filter;
        if (const auto bar = field.find('|'); bar != std::string::npos) {
            filter = field.substr(bar + 1);
            field = field.substr(0, bar);
        }
        const Attr* value = attrValue(op, attrs, field);
        if (!value) {
            if (!hasFallback)
                badRequest("op '" + op.name + "' needs attribute '" + field + "' for this code");
            out += fallback;
            continue;
        }
        out += applyFilter(filter, *value, op, attrs);
    }
    return out + "\n";
}

// The templates call the first input x; the code calls it what the GUI and the protocol call it
// ("params", "tensor"), so the identifier x (not a member .x, not part of a longer name) is
// renamed.
std::string renameFirstInput(const std::string& code, const std::string& name)
{
    if (name == "x") return code;
    const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    std::string out;
    for (std::size_t k = 0; k < code.size(); ++k) {
        const bool alone = code[k] == 'x' &&
                           (k == 0 || (!word(code[k - 1]) && code[k - 1] != '.')) &&
                           (k + 1 == code.size() || !word(code[k + 1]));
        out += alone ? name : std::string(1, code[k]);
    }
    return out;
}

} // namespace

std::string opCode(Framework framework, const OpDef& op, const Attrs& given)
{
    const FrameworkModel& model = frameworkModel(framework);
    // As a request would be: a misspelt attribute was left out, and the code took its default;
    // a value of the wrong kind makes code the framework refuses.
    checkAttrs(op, given);
    // A null the check let through is the default, as the ops read it: tf.gather's axis=None is
    // axis 0, where np.take(..., axis=None) would flatten the array.
    Attrs attrs;
    for (const auto& [name, value] : given)
        if (!value.isNull()) attrs.emplace(name, value);
    if (op.indexSpec) {
        // A subscript (getitem's expr) or raw arguments read as strided_slice reads them.
        return model.code(IndexSpec::fromAttrs(op.name, attrs), std::nullopt);
    }
    for (const Equivalent& e : op.equivalents) {
        if (e.framework != framework || !applies(e, op, attrs)) continue;
        if (e.code.empty())
            invalidArgument("no direct equivalent in " + std::string(model.title()) + " for " +
                            op.name + ": " + e.note);
        std::string out = render(e.code, op, attrs);
        if (!e.note.empty()) out = "# " + e.note + "\n" + out;
        return op.inputs.empty() ? out : renameFirstInput(out, op.inputs[0].name);
    }
    // Every op lists every framework (tst_op_equivalents); a call no entry of its applies to
    // is still answered in words.
    invalidArgument("no direct equivalent in " + std::string(model.title()) + " for " + op.name);
}

} // namespace ss
