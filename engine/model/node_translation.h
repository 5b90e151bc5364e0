// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every reader does to turn one node into an engine request: take the tensors the engine
// moves (constants, or arange fills of their stored shape), insist that arguments are constants,
// show them for display, and stop at the first thing it cannot model with a reason.

#include "core/error.h"
#include "core/slice_expr.h"
#include "core/strings.h"
#include "model/model_graph.h"

#include <optional>
#include <string>
#include <vector>

namespace ss::model {

/// Element `i` of a constant as Python prints it: integers in full (uint64 beyond int64 too),
/// float32 and float64 as Python's repr, float16 and bfloat16 in their own shortest form,
/// complex as "(a+bj)". Strings are not shown element by element.
inline std::string elementText(const Tensor& t, std::int64_t i)
{
    const DType d = t.dtype();
    if (d == DType::UInt64) return std::to_string(t.data<std::uint64_t>()[i]);
    if (d == DType::Float16 || d == DType::BFloat16) return shortestDecimal(t.doubleAt(i), d);
    if (isFloat(d)) return pythonFloatRepr(t.doubleAt(i));
    if (isComplex(d)) {
        const std::complex<double> c = t.complexAt(i);
        const DType part = d == DType::Complex64 ? DType::Float32 : DType::Float64;
        const std::string imag = shortestDecimal(c.imag(), part);
        return "(" + shortestDecimal(c.real(), part) + (imag.front() == '-' ? "" : "+") + imag +
               "j)";
    }
    return std::to_string(t.intAt(i));
}

/// Builds a node's request input by input, or stops at the first thing it cannot model.
class Translation
{
public:
    explicit Translation(ModelNode& node) : m_node(node) {}

    bool failed() const { return !m_reason.empty(); }

    /// The node input `k`, named `role`: present in the file.
    const ModelValue* input(std::size_t k, const std::string& role)
    {
        if (failed()) return nullptr;
        if (k >= m_node.inputs.size() || m_node.inputs[k].name.empty()) {
            fail(m_node.op + " needs its input " + std::to_string(k) + " (" + role +
                 "), which the file does not give");
            return nullptr;
        }
        return &m_node.inputs[k];
    }

    /// A tensor the engine moves: its value if the file holds it, else an arange fill of its
    /// shape (the stored one, with unknown sizes as the file's placeholder sizes).
    std::optional<RequestTensor> data(std::size_t k, const std::string& role)
    {
        const ModelValue* v = input(k, role);
        if (!v) return std::nullopt;
        if (!v->dtype) {
            fail(role + " is " + v->dtypeText + ", a type SliceScope does not have");
            return std::nullopt;
        }
        if (!v->stored.hasRank) {
            fail("the file gives no shape for " + role + " ('" + v->name + "')");
            return std::nullopt;
        }
        RequestTensor t;
        t.dtype = *v->dtype;
        t.from = role;
        if (v->constant) {
            t.shape = v->constant->shape();
            t.value = v->constant;
        } else {
            for (std::int64_t d : v->stored.dims)
                t.shape.push_back(d == StoredShape::kUnknownDim ? 1 : d);
            if (!v->stored.isFullyKnown())
                note(role + " has unknown dimensions " + v->stored.text() +
                     "; SliceScope uses size 1 for them, as the file's shape does");
        }
        return t;
    }

    /// An argument: it must be a constant in the file (or a value the user gave it).
    std::optional<Tensor> constant(std::size_t k, const std::string& role)
    {
        const ModelValue* v = input(k, role);
        if (!v) return std::nullopt;
        if (!v->constant && !v->dtype) {
            fail(role + " ('" + v->name + "') is " + v->dtypeText +
                 ", a type SliceScope does not have");
            return std::nullopt;
        }
        if (!v->constant) {
            fail(role + " ('" + v->name +
                 "') is computed at run time; give it a value to see "
                 "what the node does");
            return std::nullopt;
        }
        show(role, valueText(*v->constant));
        return v->constant;
    }

    /// An integer argument as a flat list.
    std::optional<std::vector<std::int64_t>> ints(std::size_t k, const std::string& role)
    {
        const auto t = constant(k, role);
        if (!t) return std::nullopt;
        if (!isInteger(t->dtype())) {
            fail(role + " is " + std::string(dtypeName(t->dtype())) + ", not integers");
            return std::nullopt;
        }
        return t->toInt64Vector();
    }

    /// A [n, 2] integer argument (paddings, crops) as [[before, after], ...].
    std::optional<Attr> pairs(std::size_t k, const std::string& role)
    {
        const auto t = constant(k, role);
        if (!t) return std::nullopt;
        if (!isInteger(t->dtype()) || t->rank() != 2 || t->shape()[1] != 2) {
            fail(role + " must be integers of shape (n, 2), not " +
                 std::string(dtypeName(t->dtype())) + " " + shapeTuple(t->shape()));
            return std::nullopt;
        }
        const auto v = t->toInt64Vector();
        Attr::List rows;
        for (std::size_t r = 0; r + 1 < v.size(); r += 2)
            rows.push_back(Attr::List{v[r], v[r + 1]});
        return Attr(rows);
    }

    /// A scalar argument (an axis, a depth): one element of any shape.
    std::optional<Tensor> scalar(std::size_t k, const std::string& role)
    {
        const auto t = constant(k, role);
        if (!t) return std::nullopt;
        if (t->size() != 1) {
            fail(role + " must hold one value, not " + std::to_string(t->size()));
            return std::nullopt;
        }
        return t;
    }

    void show(const std::string& name, const std::string& text)
    {
        m_node.attributes.push_back({name, text});
    }
    void fail(const std::string& reason)
    {
        if (m_reason.empty()) m_reason = reason;
    }
    void note(const std::string& text) { m_notes += (m_notes.empty() ? "" : "; ") + text; }

    void finish(NodeRequest request)
    {
        if (failed()) {
            m_node.reason = m_reason;
            return;
        }
        m_node.request = std::move(request);
        m_node.reason = m_notes;
    }

    static std::string valueText(const Tensor& t)
    {
        if (t.dtype() == DType::String) return "strings " + shapeTuple(t.shape());
        if (t.size() > 16) return std::string(dtypeName(t.dtype())) + " " + shapeTuple(t.shape());
        std::string text = "[";
        for (std::int64_t i = 0; i < t.size(); ++i)
            text += (i ? ", " : "") + elementText(t, i);
        text += "]";
        if (t.rank() == 0) text = text.substr(1, text.size() - 2);
        return text;
    }

private:
    ModelNode& m_node;
    std::string m_reason;
    std::string m_notes;
};

/// An attribute from a one-element tensor (bool, integer or float).
inline Attr scalarAttr(const Tensor& t)
{
    if (t.dtype() == DType::Bool) return Attr(t.toInt64Vector()[0] != 0);
    if (isFloat(t.dtype()) || isComplex(t.dtype())) return Attr(t.doubleAt(0)); // real part
    return Attr(t.toInt64Vector()[0]);
}

/// A node's integer attribute as the reader stored it (rawAttrs), or `fallback`.
inline std::int64_t intAttr(const ModelNode& node, const char* name, std::int64_t fallback = 0)
{
    const auto it = node.rawAttrs.find(name);
    return it != node.rawAttrs.end() && it->second.isInt() ? it->second.toInt() : fallback;
}

/// A node's string attribute, or `fallback`.
inline std::string stringAttr(const ModelNode& node, const char* name,
                              const std::string& fallback = "")
{
    const auto it = node.rawAttrs.find(name);
    return it != node.rawAttrs.end() && it->second.isString() ? it->second.toString() : fallback;
}

// Ops that TFLite and TensorFlow graphs spell alike (attributes seq_dim, batch_dim; inputs
// input, block_shape, paddings or crops), translated once for both readers.

/// ReverseSequence / REVERSE_SEQUENCE.
inline void translateReverseSequence(const ModelNode& node, Translation& tr, NodeRequest& req)
{
    const auto input = tr.data(0, "input");
    const auto lengths = tr.constant(1, "seq_lengths");
    tr.show("seq_dim", std::to_string(intAttr(node, "seq_dim")));
    tr.show("batch_dim", std::to_string(intAttr(node, "batch_dim")));
    if (tr.failed()) return;
    req.op = "reverse_sequence";
    req.inputs.push_back({"input", {*input}});
    req.inputs.push_back(
        {"seq_lengths", {{lengths->dtype(), lengths->shape(), lengths, "seq_lengths"}}});
    req.attrs = {{"seq_axis", intAttr(node, "seq_dim")},
                 {"batch_axis", intAttr(node, "batch_dim")}};
}

/// SpaceToBatchND / BatchToSpaceND (SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND).
inline void translateSpaceBatchNd(bool toBatch, Translation& tr, NodeRequest& req)
{
    const auto input = tr.data(0, "input");
    const auto block = tr.ints(1, "block_shape");
    const auto pads = tr.pairs(2, toBatch ? "paddings" : "crops");
    if (tr.failed()) return;
    req.op = toBatch ? "space_to_batch_nd" : "batch_to_space_nd";
    req.inputs.push_back({"input", {*input}});
    req.attrs = {{"block_shape", Attr::ints(*block)}, {toBatch ? "paddings" : "crops", *pads}};
}

} // namespace ss::model
