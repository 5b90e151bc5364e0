// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/op.h"

#include "core/error.h"

#include <algorithm>

namespace ss {

namespace {

void flattenInts(const Attr& a, std::size_t depth, const Shape& shape,
                 std::vector<std::int64_t>& values, const std::string& what)
{
    const bool ok = depth == shape.size()
                        ? a.isInt()
                        : a.isList() && std::int64_t(a.toList().size()) == shape[depth];
    if (!ok)
        badRequest("attribute '" + what + "' must be an integer or a rectangular list of integers");
    if (depth == shape.size())
        values.push_back(a.toInt());
    else
        for (const Attr& item : a.toList())
            flattenInts(item, depth + 1, shape, values, what);
}

// The leaves of a rectangular nest, row-major, each checked against the nest's shape.
void flattenLeaves(const Attr& a, std::size_t depth, const Shape& shape,
                   std::vector<const Attr*>& leaves)
{
    const bool ok = depth == shape.size()
                        ? !a.isList() && !a.isMap() && !a.isNull()
                        : a.isList() && std::int64_t(a.toList().size()) == shape[depth];
    if (!ok) badRequest("an example tensor's value must be a rectangular nest of elements");
    if (depth == shape.size())
        leaves.push_back(&a);
    else
        for (const Attr& item : a.toList())
            flattenLeaves(item, depth + 1, shape, leaves);
}

} // namespace

std::string_view familyName(OpFamily family)
{
    switch (family) {
    case OpFamily::Slicing: return "slicing";
    case OpFamily::SplitJoin: return "splitting and joining";
    case OpFamily::RepeatPad: return "repeating and padding";
    case OpFamily::Reorder: return "reordering";
    case OpFamily::SpaceDepth: return "space and depth";
    case OpFamily::Index: break;
    }
    return "gathering and masking";
}

std::string_view notationName(Notation notation)
{
    switch (notation) {
    case Notation::Subscript: return "subscript";
    case Notation::RawStridedSlice: return "raw strided slice";
    case Notation::Box: return "box";
    case Notation::PaddleAxes: return "paddle axes";
    case Notation::Generic: break;
    }
    return "generic";
}

const std::vector<std::string>& notationAttrs(Notation notation)
{
    static const std::vector<std::string> subscript{"expr"};
    static const std::vector<std::string> raw{
        "begin",    "end",           "strides",       "begin_mask",
        "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"};
    static const std::vector<std::string> box{"begin", "size"};
    static const std::vector<std::string> paddle{"axes", "starts", "ends", "strides"};
    static const std::vector<std::string> none;
    switch (notation) {
    case Notation::Subscript: return subscript;
    case Notation::RawStridedSlice: return raw;
    case Notation::Box: return box;
    case Notation::PaddleAxes: return paddle;
    case Notation::Generic: break;
    }
    return none;
}

Equivalent equivalent(Framework framework, std::string code, std::string note)
{
    Equivalent e;
    e.framework = framework;
    e.code = std::move(code);
    e.note = std::move(note);
    return e;
}

Equivalent noEquivalent(Framework framework, std::string reason)
{
    Equivalent e;
    e.framework = framework;
    e.note = std::move(reason);
    return e;
}

Equivalent when(std::string attr, std::string value, std::string absent, Equivalent e)
{
    e.whenAttr = std::move(attr);
    e.whenValue = std::move(value);
    e.whenDefault = std::move(absent);
    return e;
}

ExampleTensor exampleFill(DType dtype, Shape shape, Fill fill)
{
    return ExampleTensor{dtype, std::move(shape), fill, Attr()};
}

ExampleTensor exampleValue(DType dtype, Attr value)
{
    ExampleTensor t;
    t.dtype = dtype;
    t.value = std::move(value);
    return t;
}

Tensor makeExampleTensor(const ExampleTensor& example, const Limits& limits)
{
    if (example.value.isNull())
        return makeFilled(example.dtype, example.shape, example.fill, 0, limits);
    const Shape shape = attrShape(example.value);
    std::vector<const Attr*> leaves;
    flattenLeaves(example.value, 0, shape, leaves);
    Tensor t = Tensor::empty(example.dtype, shape, limits);
    const bool isString = example.dtype == DType::String;
    const bool isBool = example.dtype == DType::Bool;
    const bool isFloat = ss::isFloat(example.dtype) || isComplex(example.dtype);
    for (std::size_t i = 0; i < leaves.size(); ++i) {
        const Attr& a = *leaves[i];
        const bool fits = isString  ? a.isString()
                          : isBool  ? a.isBool()
                          : isFloat ? a.isNumber()
                                    : a.isInt();
        if (!fits)
            badRequest("an example tensor's element does not fit its dtype " +
                       std::string(dtypeName(example.dtype)));
        if (isString)
            t.data<std::string>()[i] = a.toString();
        else if (isBool)
            t.setFromInt(std::int64_t(i), a.toBool() ? 1 : 0);
        else if (isFloat)
            t.setFromDouble(std::int64_t(i), a.toDouble());
        else
            t.setFromInt(std::int64_t(i), a.toInt());
    }
    return t;
}

Shape attrShape(const Attr& value)
{
    Shape shape;
    for (const Attr* a = &value; a->isList(); a = &a->toList().front()) {
        shape.push_back(std::int64_t(a->toList().size()));
        if (a->toList().empty()) break;
    }
    return shape;
}

IntTensor toIntTensor(const Attr& value, const std::string& what)
{
    IntTensor t;
    // The shape is read along the first elements; every other element must agree with it.
    t.shape = attrShape(value);
    flattenInts(value, 0, t.shape, t.values, what);
    return t;
}

namespace {

const AttrDef* findAttrDef(const OpDef& def, std::string_view name)
{
    for (const AttrDef& a : def.attrs) {
        if (a.name == name) return &a;
        if (std::find(a.aliases.begin(), a.aliases.end(), name) != a.aliases.end()) return &a;
    }
    return nullptr;
}

} // namespace

void checkAttrType(AttrType type, const Attr& value, const std::string& spelled)
{
    switch (type) {
    case AttrType::Any: return;
    case AttrType::Int:
        if (!value.isInt()) badRequest("attribute '" + spelled + "' must be an integer");
        return;
    case AttrType::String:
        if (!value.isString()) badRequest("attribute '" + spelled + "' must be a string");
        return;
    case AttrType::IntsOrNull:
        if (value.isNull()) return;
        [[fallthrough]];
    case AttrType::Ints: toIntTensor(value, spelled); return;
    case AttrType::IntList:
        if (toIntTensor(value, spelled).shape.size() != 1)
            badRequest("attribute '" + spelled + "' must be a list of integers");
        return;
    }
}

void checkAttrs(const OpDef& def, const Attrs& attrs)
{
    for (const auto& [name, value] : attrs) {
        const AttrDef* a = findAttrDef(def, name);
        if (!a) badRequest("op '" + def.name + "' has no attribute '" + name + "'");
        int spellings = int(attrs.count(a->name));
        for (const auto& alias : a->aliases)
            spellings += int(attrs.count(alias));
        if (spellings > 1)
            badRequest("attribute '" + a->name + "' of op '" + def.name +
                       "' is given more than once (under an alias)");
    }
    // Names first: a misspelt name is the first thing to say, whatever the values.
    for (const auto& [name, value] : attrs)
        checkAttrType(findAttrDef(def, name)->type, value, name);
}

OpCall::OpCall(const OpDef& def, std::vector<std::vector<Tensor>> inputs, Attrs attrs,
               Limits limits)
    : m_def(&def), m_inputs(std::move(inputs)), m_attrs(std::move(attrs)), m_limits(limits)
{
    if (m_inputs.size() != def.inputs.size())
        badRequest("op '" + def.name + "' takes " + std::to_string(def.inputs.size()) +
                   " inputs, got " + std::to_string(m_inputs.size()));
    for (std::size_t k = 0; k < def.inputs.size(); ++k)
        if (!def.inputs[k].isList && m_inputs[k].size() != 1)
            badRequest("input '" + def.inputs[k].name + "' of op '" + def.name +
                       "' must be one tensor");
    checkAttrs(def, m_attrs);
}

const AttrDef* OpCall::findAttr(std::string_view name) const
{
    return findAttrDef(*m_def, name);
}

const Tensor& OpCall::input(std::string_view name) const
{
    return inputList(name).front();
}

const std::vector<Tensor>& OpCall::inputList(std::string_view name) const
{
    for (std::size_t k = 0; k < m_def->inputs.size(); ++k)
        if (m_def->inputs[k].name == name) return m_inputs[k];
    throw OpError(ErrorCode::Internal,
                  "op '" + m_def->name + "' has no input '" + std::string(name) + "'");
}

int OpCall::slot(std::string_view name, int k) const
{
    int base = 0;
    for (std::size_t i = 0; i < m_def->inputs.size(); ++i) {
        if (m_def->inputs[i].name == name) return base + k;
        base += int(m_inputs[i].size());
    }
    throw OpError(ErrorCode::Internal,
                  "op '" + m_def->name + "' has no input '" + std::string(name) + "'");
}

std::vector<Tensor> OpCall::allInputs() const
{
    std::vector<Tensor> all;
    for (const auto& list : m_inputs)
        all.insert(all.end(), list.begin(), list.end());
    return all;
}

const Attr* OpCall::attr(std::string_view name) const
{
    const AttrDef* a = findAttr(name);
    if (!a)
        throw OpError(ErrorCode::Internal, "op '" + m_def->name + "' reads undeclared attribute '" +
                                               std::string(name) + "'");
    if (auto it = m_attrs.find(a->name); it != m_attrs.end()) return &it->second;
    for (const auto& alias : a->aliases)
        if (auto it = m_attrs.find(alias); it != m_attrs.end()) return &it->second;
    return nullptr;
}

std::string OpCall::spelledAs(std::string_view name) const
{
    const AttrDef* a = findAttr(name);
    if (a)
        for (const auto& alias : a->aliases)
            if (m_attrs.count(alias)) return alias;
    return std::string(name);
}

std::int64_t OpCall::requireInt(std::string_view name) const
{
    const Attr* a = attr(name);
    if (!a) badRequest("op '" + m_def->name + "' needs attribute '" + std::string(name) + "'");
    checkAttrType(AttrType::Int, *a, spelledAs(name));
    return a->toInt();
}

std::int64_t OpCall::getInt(std::string_view name, std::int64_t fallback) const
{
    return has(name) ? requireInt(name) : fallback;
}

std::string OpCall::getString(std::string_view name, const std::string& fallback) const
{
    const Attr* a = attr(name);
    if (!a) return fallback;
    checkAttrType(AttrType::String, *a, spelledAs(name));
    return a->toString();
}

IntTensor OpCall::intTensor(std::string_view name) const
{
    const Attr* a = attr(name);
    if (!a) badRequest("op '" + m_def->name + "' needs attribute '" + std::string(name) + "'");
    return toIntTensor(*a, spelledAs(name));
}

IntTensor OpCall::intTensor(std::string_view name, const IntTensor& fallback) const
{
    return has(name) ? intTensor(name) : fallback;
}

std::vector<std::int64_t> OpCall::intList(std::string_view name) const
{
    const Attr* a = attr(name);
    if (!a) badRequest("op '" + m_def->name + "' needs attribute '" + std::string(name) + "'");
    checkAttrType(AttrType::IntList, *a, spelledAs(name));
    return toIntTensor(*a, spelledAs(name)).values;
}

const OpDef* findOp(std::string_view name)
{
    for (const OpDef& op : allOps()) {
        if (op.name == name) return &op;
        if (std::find(op.aliases.begin(), op.aliases.end(), name) != op.aliases.end()) return &op;
    }
    return nullptr;
}

} // namespace ss
