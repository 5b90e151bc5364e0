// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/call_expr.h"

#include "core/error.h"
#include "core/python_literal.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

namespace ss {

namespace {

// One argument's value as written: a literal (read by the subscript parser), or a name (the
// tensor, a dtype, a variable the text does not give).
struct Value
{
    bool isName = false;
    std::string name;      ///< isName
    PythonLiteral literal; ///< !isName
    int begin = 0;         ///< characters
    int end = 0;
    std::string text; ///< as written
};

struct Argument
{
    std::string keyword; ///< empty for a positional argument
    int keywordBegin = 0;
    Value value;
};

struct Call
{
    std::string function;
    int functionBegin = 0;
    int closeAt = 0; ///< the closing parenthesis, for "missing argument" messages
    std::vector<Argument> args;
};

// The parameters of a Python function, for binding the arguments of a call to them.
struct Signature
{
    std::vector<std::string> params;
    std::size_t required = 0;
    bool keywordOnly = false; ///< tf.raw_ops take keywords only
};

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class CallReader
{
public:
    explicit CallReader(std::string_view text) : m_s(text) {}

    [[noreturn]] void fail(std::size_t bytePos, const std::string& message) const
    {
        failAtChar(charPos(bytePos), message);
    }
    // The message names the part it stopped at: its position and the text from there (a few
    // words, up to the next comma or bracket).
    [[noreturn]] void failAtChar(int position, const std::string& message) const
    {
        const std::size_t at = byteOf(position);
        std::size_t end = at;
        int depth = 0;
        while (end < m_s.size() && end - at < 40) {
            const char c = m_s[end];
            if (c == '(' || c == '[' || c == '{') ++depth;
            if (c == ')' || c == ']' || c == '}') {
                if (depth == 0) break;
                --depth;
            }
            if (c == ',' && depth == 0 && end > at) break;
            ++end;
        }
        if (end == at && at < m_s.size()) ++end; // a closing bracket stands for itself
        std::string part(m_s.substr(at, end - at));
        while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back())))
            part.pop_back();
        const std::string where =
            part.empty() ? " (at position " + std::to_string(position) + ", the end)"
                         : " (at position " + std::to_string(position) + ": '" + part + "')";
        throw OpError(ErrorCode::ParseError, message + where, position);
    }

    int charPos(std::size_t bytePos) const
    {
        int position = 0;
        for (std::size_t i = 0; i < bytePos && i < m_s.size(); ++i)
            position += (static_cast<unsigned char>(m_s[i]) & 0xC0) != 0x80;
        return position;
    }
    std::size_t byteOf(int position) const
    {
        std::size_t i = 0;
        for (int seen = 0; i < m_s.size(); ++i) {
            if ((static_cast<unsigned char>(m_s[i]) & 0xC0) != 0x80) {
                if (seen == position) return i;
                ++seen;
            }
        }
        return m_s.size();
    }

    char peek(std::size_t ahead = 0) const
    {
        return m_pos + ahead < m_s.size() ? m_s[m_pos + ahead] : '\0';
    }
    void skipSpace()
    {
        while (m_pos < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_pos])))
            ++m_pos;
    }
    bool atEnd()
    {
        skipSpace();
        // A statement may end with a semicolon, as pasted from a line of code.
        if (peek() == ';') {
            ++m_pos;
            skipSpace();
        }
        return m_pos == m_s.size();
    }
    std::size_t pos() const { return m_pos; }
    void setPos(std::size_t pos) { m_pos = pos; }
    std::string_view text() const { return m_s; }

    // name ('.' name)*, spaces allowed around the dots.
    std::string dottedName()
    {
        std::string name;
        for (;;) {
            skipSpace();
            if (!isIdentStart(peek())) fail(m_pos, "expected a name");
            const std::size_t start = m_pos;
            while (isIdentChar(peek()))
                ++m_pos;
            name += std::string(m_s.substr(start, m_pos - start));
            const std::size_t save = m_pos;
            skipSpace();
            if (peek() == '.' && !std::isdigit(static_cast<unsigned char>(peek(1)))) {
                ++m_pos;
                name += '.';
                continue;
            }
            m_pos = save;
            return name;
        }
    }

    // After an optional `target =`, the start of the expression.
    void skipAssignment()
    {
        skipSpace();
        const std::size_t save = m_pos;
        if (isIdentStart(peek())) {
            dottedName();
            skipSpace();
            if (peek() == '=' && peek(1) != '=') {
                ++m_pos;
                skipSpace();
                return;
            }
        }
        m_pos = save;
    }

    // The argument list after '(' up to and including ')'.
    std::vector<Argument> arguments(int& closeAt)
    {
        std::vector<Argument> args;
        bool keywordSeen = false;
        skipSpace();
        while (peek() != ')') {
            if (m_pos == m_s.size()) fail(m_pos, "expected ')' to close the call");
            Argument arg;
            skipSpace();
            const std::size_t start = m_pos;
            if (isIdentStart(peek())) {
                const std::size_t nameStart = m_pos;
                while (isIdentChar(peek()))
                    ++m_pos;
                const std::string word(m_s.substr(nameStart, m_pos - nameStart));
                skipSpace();
                if (peek() == '=' && peek(1) != '=') {
                    arg.keyword = word;
                    arg.keywordBegin = charPos(nameStart);
                    ++m_pos;
                } else {
                    m_pos = start;
                }
            }
            if (arg.keyword.empty() && keywordSeen)
                fail(start, "a positional argument follows a keyword argument");
            keywordSeen = keywordSeen || !arg.keyword.empty();
            arg.value = value();
            args.push_back(std::move(arg));
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                skipSpace();
                continue;
            }
            if (peek() != ')') {
                if (m_pos == m_s.size()) fail(m_pos, "expected ')' to close the call");
                fail(m_pos, "expected ',' or ')' after the argument");
            }
        }
        closeAt = charPos(m_pos);
        ++m_pos;
        return args;
    }

    Value value()
    {
        skipSpace();
        Value v;
        const std::size_t start = m_pos;
        v.begin = charPos(start);
        if (isIdentStart(peek())) {
            const std::size_t save = m_pos;
            std::string name = dottedName();
            if (name == "None" || name == "True" || name == "False" || name == "Ellipsis" ||
                name == "tf.newaxis" || name == "np.newaxis") {
                m_pos = save;
                v.literal = readPythonLiteral(m_s, m_pos);
            } else {
                skipSpace();
                if (peek() == '(') {
                    // tf.constant([0, 1]), np.array(...), torch.tensor(...): the list inside.
                    static const char* const wrappers[] = {
                        "tf.constant",      "tf.convert_to_tensor", "np.array",
                        "numpy.array",      "np.asarray",           "torch.tensor",
                        "torch.LongTensor", "paddle.to_tensor"};
                    if (std::find(std::begin(wrappers), std::end(wrappers), name) ==
                        std::end(wrappers))
                        fail(start, "a call inside the arguments (" + name +
                                        "(...)) is computed at run time: paste its value");
                    ++m_pos;
                    int closeAt = 0;
                    const std::vector<Argument> inner = arguments(closeAt);
                    if (inner.empty() || !inner[0].keyword.empty())
                        failAtChar(v.begin, name + "(...) needs its value as the first argument");
                    if (inner[0].value.isName)
                        failAtChar(inner[0].value.begin,
                                   "'" + inner[0].value.name +
                                       "' is a name the text does not give: paste its value");
                    v.literal = inner[0].value.literal;
                } else {
                    v.isName = true;
                    v.name = name;
                }
            }
        } else {
            v.literal = readPythonLiteral(m_s, m_pos);
        }
        v.end = charPos(m_pos);
        v.text = std::string(m_s.substr(start, m_pos - start));
        while (!v.text.empty() && std::isspace(static_cast<unsigned char>(v.text.back())))
            v.text.pop_back();
        return v;
    }

private:
    std::string_view m_s;
    std::size_t m_pos = 0;
};

// ---- values into attributes -------------------------------------------------------------

class Binder
{
public:
    Binder(const CallReader& reader, const Call& call, Signature signature,
           std::size_t skipPositional = 0)
        : m_reader(reader), m_call(call), m_sig(std::move(signature))
    {
        std::size_t positional = skipPositional;
        for (const Argument& a : call.args) {
            if (a.keyword.empty()) {
                if (m_sig.keywordOnly)
                    m_reader.failAtChar(a.value.begin, call.function + " takes keyword arguments "
                                                                       "only");
                if (positional >= m_sig.params.size())
                    m_reader.failAtChar(a.value.begin,
                                        call.function + " takes at most " +
                                            std::to_string(m_sig.params.size() - skipPositional) +
                                            " positional arguments");
                m_bound[m_sig.params[positional++]] = &a;
                continue;
            }
            if (std::find(m_sig.params.begin(), m_sig.params.end(), a.keyword) ==
                m_sig.params.end()) {
                std::string known;
                for (std::size_t k = skipPositional; k < m_sig.params.size(); ++k)
                    known += (known.empty() ? "" : ", ") + m_sig.params[k];
                m_reader.failAtChar(a.keywordBegin, call.function + " has no argument '" +
                                                        a.keyword + "' (it takes " + known + ")");
            }
            if (m_bound.count(a.keyword))
                m_reader.failAtChar(a.keywordBegin, "'" + a.keyword + "' is given twice");
            m_bound[a.keyword] = &a;
        }
        for (std::size_t k = skipPositional; k < m_sig.required; ++k)
            if (!m_bound.count(m_sig.params[k]))
                m_reader.failAtChar(call.closeAt, call.function + " is missing its argument '" +
                                                      m_sig.params[k] + "'");
    }

    const Value* get(const std::string& name) const
    {
        const auto it = m_bound.find(name);
        if (it == m_bound.end()) return nullptr;
        // An argument given as None is the parameter's default.
        const Value& v = it->second->value;
        if (!v.isName && v.literal.kind == PythonLiteral::Kind::None) return nullptr;
        return &v;
    }

    // A required argument's value. The binding checked it is given; given as None, it is the
    // parameter's default, and a required parameter has none.
    const Value& need(const std::string& name) const
    {
        if (const Value* v = get(name)) return *v;
        const auto it = m_bound.find(name);
        failAt(it != m_bound.end() ? it->second->value.begin : m_call.closeAt,
               m_call.function + " needs a value for '" + name + "'; None is not one");
    }

    [[noreturn]] void fail(const Value& v, const std::string& message) const
    {
        m_reader.failAtChar(v.begin, message);
    }
    [[noreturn]] void failAt(int position, const std::string& message) const
    {
        m_reader.failAtChar(position, message);
    }

    // The tensor sliced: a name (the caller supplies the tensor).
    std::string tensorName(const std::string& param) const
    {
        const auto it = m_bound.find(param);
        const Value& v = it->second->value;
        if (!v.isName)
            fail(v, "'" + param +
                        "' is the tensor sliced: write its name (x); its values come "
                        "from the input");
        return v.name;
    }

    std::int64_t integer(const std::string& param, std::int64_t fallback) const
    {
        const Value* v = get(param);
        if (!v) return fallback;
        return integerOf(*v, param);
    }
    std::int64_t integerOf(const Value& v, const std::string& param) const
    {
        if (v.isName)
            fail(v, param + " is '" + v.name +
                        "', a name the text does not give: "
                        "paste its value");
        if (v.literal.kind != PythonLiteral::Kind::Integer || !v.literal.fits)
            fail(v, param + " must be an integer, got " + v.literal.repr);
        return v.literal.value;
    }

    std::vector<std::int64_t> integers(const std::string& param) const
    {
        const Value* v = get(param);
        if (!v) return {};
        if (v->isName)
            fail(*v, param + " is '" + v->name +
                         "', a name the text does not give: paste its "
                         "value");
        const PythonLiteral& l = v->literal;
        if (l.kind != PythonLiteral::Kind::List && l.kind != PythonLiteral::Kind::Tuple)
            fail(*v, param + " must be a list of integers, got " + l.repr);
        std::vector<std::int64_t> out;
        for (const PythonLiteral& e : l.elements) {
            if (e.kind != PythonLiteral::Kind::Integer || !e.fits)
                m_reader.failAtChar(e.begin, param + " must be a list of integers, got " + e.repr);
            out.push_back(e.value);
        }
        return out;
    }

    std::string string(const std::string& param, const std::string& fallback) const
    {
        const Value* v = get(param);
        if (!v) return fallback;
        if (v->isName || v->literal.kind != PythonLiteral::Kind::String)
            fail(*v, param + " must be a string, got " + v->text);
        return v->literal.content;
    }

    // Arguments that must be left at their default (out=, var=).
    void requireDefault(const std::string& param, const std::string& why) const
    {
        if (const Value* v = get(param)) fail(*v, param + "= " + why);
    }

    const Call& call() const { return m_call; }

private:
    const CallReader& m_reader;
    const Call& m_call;
    Signature m_sig;
    std::map<std::string, const Argument*> m_bound;
};

// An integer tensor from a literal: a scalar, or lists nested to a rectangular shape. int32
// unless a value needs int64, as TensorFlow infers a literal's dtype.
struct IndexLiteral
{
    Shape shape;
    std::vector<std::int64_t> values;
    std::vector<int> positions; ///< each value's character position, for messages
};

IndexLiteral indexLiteral(const Binder& b, const Value& v, const std::string& param)
{
    if (v.isName)
        b.fail(v, param + " is '" + v.name +
                      "', a name the text does not give: paste "
                      "its value");
    IndexLiteral out;
    for (const PythonLiteral* level = &v.literal;; level = &level->elements.front()) {
        if (level->kind == PythonLiteral::Kind::List || level->kind == PythonLiteral::Kind::Tuple) {
            out.shape.push_back(std::int64_t(level->elements.size()));
            if (level->elements.empty()) break;
        } else {
            break;
        }
    }
    auto walk = [&](auto&& self, const PythonLiteral& node, std::size_t depth) -> void {
        const bool list =
            node.kind == PythonLiteral::Kind::List || node.kind == PythonLiteral::Kind::Tuple;
        if (depth == out.shape.size()) {
            if (list || node.kind != PythonLiteral::Kind::Integer || !node.fits)
                b.fail(v, param + " must hold integers in a rectangular nesting; " + node.repr +
                              " is not one");
            out.values.push_back(node.value);
            out.positions.push_back(node.begin);
            return;
        }
        if (!list || std::int64_t(node.elements.size()) != out.shape[depth])
            b.fail(v, param + " is ragged: its lists must have equal lengths at each depth");
        for (const PythonLiteral& e : node.elements)
            self(self, e, depth + 1);
    };
    walk(walk, v.literal, 0);
    return out;
}

Tensor indexTensor(const IndexLiteral& literal)
{
    bool wide = false;
    for (const std::int64_t x : literal.values)
        wide = wide || x < std::numeric_limits<std::int32_t>::min() ||
               x > std::numeric_limits<std::int32_t>::max();
    return Tensor::fromInts(wide ? DType::Int64 : DType::Int32, literal.shape, literal.values);
}

// The size of dimension `axis` (negative counts from the end) of `shape`, or fails naming what
// needs it.
std::int64_t dimensionSize(const Binder& b, const Value& at, const std::optional<Shape>& shape,
                           std::int64_t axis, const std::string& why)
{
    if (!shape)
        b.fail(at, why + " needs the input's shape (give --shape or --npy; the window's input "
                         "gives it)");
    const auto rank = std::int64_t(shape->size());
    if (axis < -rank || axis >= rank)
        b.fail(at, "axis " + std::to_string(axis) + " is out of range for an input of rank " +
                       std::to_string(rank));
    return (*shape)[std::size_t(axis < 0 ? axis + rank : axis)];
}

// ---- the functions ------------------------------------------------------------------------

// The function's name without its module: "strided_slice" for tf.compat.v1.strided_slice, or
// empty for a module the reader does not know.
std::string tensorflowName(const std::string& f)
{
    for (const char* prefix :
         {"tf.compat.v1.", "tf.compat.v2.", "tensorflow.compat.v1.", "tensorflow.compat.v2.",
          "tf.raw_ops.", "tensorflow.raw_ops.", "tf.", "tensorflow."})
        if (f.starts_with(prefix)) return f.substr(std::string_view(prefix).size());
    return {};
}

void masksInto(const Binder& b, Attrs& attrs)
{
    for (const char* mask :
         {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
        const Value* v = b.get(mask);
        if (!v) continue;
        const std::int64_t m = b.integerOf(*v, mask);
        attrs.emplace(mask, Attr(m));
    }
}

CallTranslation stridedSlice(const Binder& b, bool raw)
{
    CallTranslation t;
    t.op = "strided_slice";
    t.tensor = b.tensorName(raw ? "input" : "input_");
    t.attrs.emplace("begin", Attr::ints(b.integers("begin")));
    t.attrs.emplace("end", Attr::ints(b.integers("end")));
    if (b.get("strides")) t.attrs.emplace("strides", Attr::ints(b.integers("strides")));
    masksInto(b, t.attrs);
    if (!raw) b.requireDefault("var", "is for assignment to a variable; leave it out");
    return t;
}

CallTranslation slice(const Binder& b, bool raw)
{
    CallTranslation t;
    t.op = "slice";
    t.tensor = b.tensorName(raw ? "input" : "input_");
    t.attrs.emplace("begin", Attr::ints(b.integers("begin")));
    t.attrs.emplace("size", Attr::ints(b.integers("size")));
    return t;
}

CallTranslation gather(const Binder& b)
{
    CallTranslation t;
    t.op = "gather";
    t.tensor = b.tensorName("params");
    const Value* indices = b.get("indices");
    if (!indices) b.failAt(b.call().closeAt, "tf.gather needs its indices");
    t.givenInputs.emplace_back("indices", indexTensor(indexLiteral(b, *indices, "indices")));
    const std::int64_t batchDims = b.integer("batch_dims", 0);
    // TensorFlow: with no axis, the axis is batch_dims.
    const std::int64_t axis = b.integer("axis", batchDims);
    t.attrs.emplace("axis", Attr(axis));
    if (batchDims != 0) t.attrs.emplace("batch_dims", Attr(batchDims));
    if (!b.get("axis") && batchDims != 0)
        t.notes.push_back("axis is not given: TensorFlow takes batch_dims (" +
                          std::to_string(batchDims) + ") as the axis");
    return t;
}

CallTranslation paddleStridedSlice(const Binder& b)
{
    CallTranslation t;
    t.op = "paddle_strided_slice";
    t.tensor = b.tensorName("x");
    for (const char* name : {"axes", "starts", "ends", "strides"})
        t.attrs.emplace(name, Attr::ints(b.integers(name)));
    return t;
}

// torch.narrow(input, dim, start, length): input[..., start:start + length, ...] on dim, with
// start and length checked as PyTorch checks them. slice refuses the same ranges, but reads a
// size of -1 as "to the end", which narrow refuses, and needs one begin and size per dimension.
CallTranslation narrow(const Binder& b, const std::string& tensor,
                       const std::optional<Shape>& shape)
{
    CallTranslation t;
    t.op = "slice";
    t.tensor = tensor;
    const Value* dimV = &b.need("dim");
    const Value* startV = &b.need("start");
    const Value* lengthV = &b.need("length");
    const std::int64_t dim = b.integerOf(*dimV, "dim");
    std::int64_t start = b.integerOf(*startV, "start");
    const std::int64_t length = b.integerOf(*lengthV, "length");
    if (length < 0) b.fail(*lengthV, "narrow(): length must be non-negative.");
    const std::int64_t size = dimensionSize(b, *dimV, shape, dim, "narrow");
    const auto rank = std::int64_t(shape->size());
    const std::int64_t axis = dim < 0 ? dim + rank : dim;
    if (start < -size || start > size)
        b.fail(*startV, "start out of range (expected to be in range of [" + std::to_string(-size) +
                            ", " + std::to_string(size) + "], but got " + std::to_string(start) +
                            ")");
    if (start < 0) {
        t.notes.push_back("start " + std::to_string(start) +
                          " counts from the end: " + std::to_string(start + size));
        start += size;
    }
    if (start + length > size)
        b.fail(*lengthV, "start (" + std::to_string(start) + ") + length (" +
                             std::to_string(length) + ") exceeds dimension size (" +
                             std::to_string(size) + ").");
    std::vector<std::int64_t> begin(std::size_t(rank), 0), sizes(std::size_t(rank), -1);
    begin[std::size_t(axis)] = start;
    sizes[std::size_t(axis)] = length;
    t.attrs.emplace("begin", Attr::ints(begin));
    t.attrs.emplace("size", Attr::ints(sizes));
    return t;
}

// np.take(a, indices, axis, out, mode): gather along axis. NumPy wraps negative indices (and
// with mode 'wrap' or 'clip' every index) where TensorFlow's gather refuses them, so those are
// made into the indices gather reads the same elements with, which needs the axis' size.
CallTranslation take(const Binder& b, const std::string& tensor, const std::optional<Shape>& shape)
{
    CallTranslation t;
    t.op = "gather";
    t.tensor = tensor;
    IndexLiteral indices = indexLiteral(b, b.need("indices"), "indices");
    const Value* axisV = b.get("axis");
    if (!axisV)
        b.failAt(b.call().closeAt,
                 "np.take without axis= takes from the flattened array: give axis= (or "
                 "slice x.ravel())");
    const std::int64_t axis = b.integerOf(*axisV, "axis");
    b.requireDefault("out", "writes into another array; leave it out");
    const std::string mode = b.string("mode", "raise");
    if (mode != "raise" && mode != "wrap" && mode != "clip")
        b.fail(*b.get("mode"),
               "clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + mode + "')");
    const bool negative = std::any_of(indices.values.begin(), indices.values.end(),
                                      [](std::int64_t x) { return x < 0; });
    if (mode != "raise" || negative) {
        const std::int64_t n =
            dimensionSize(b, *axisV, shape, axis,
                          mode != "raise" ? "mode='" + mode + "'" : "a negative index in np.take");
        for (std::size_t k = 0; k < indices.values.size(); ++k) {
            std::int64_t& x = indices.values[k];
            if (mode == "wrap") {
                if (n == 0) b.fail(*axisV, "cannot do a non-empty take from an empty axes.");
                x = ((x % n) + n) % n;
            } else if (mode == "clip") {
                if (n == 0) b.fail(*axisV, "cannot do a non-empty take from an empty axes.");
                x = std::clamp<std::int64_t>(x, 0, n - 1);
            } else if (x < 0 && x >= -n) {
                x += n;
            } else if (x < 0) {
                b.failAt(indices.positions[k],
                         "index " + std::to_string(x) + " is out of bounds for axis " +
                             std::to_string(axis) + " with size " + std::to_string(n));
            }
        }
        t.notes.push_back(mode != "raise"
                              ? "mode='" + mode + "': the indices are the ones NumPy reads"
                              : "negative indices count from the end, as NumPy "
                                "reads them");
    }
    t.givenInputs.emplace_back("indices", indexTensor(indices));
    t.attrs.emplace("axis", Attr(axis));
    return t;
}

// ---- chained subscripts ---------------------------------------------------------------------

bool fullSlice(const SubscriptItem& it)
{
    return it.kind == SubscriptItem::Kind::Slice && !it.start && !it.stop &&
           (!it.step || *it.step == 1);
}

bool basic(const SubscriptItem& it)
{
    return it.kind == SubscriptItem::Kind::Integer || it.kind == SubscriptItem::Kind::Slice ||
           it.kind == SubscriptItem::Kind::NewAxis || it.kind == SubscriptItem::Kind::Ellipsis;
}

// x[a][b] as one subscript x[c] that reads the same for every input, or a message at the part
// of b that makes it depend on the input's shape.
std::vector<SubscriptItem> compose(const CallReader& reader, std::vector<SubscriptItem> a,
                                   const std::vector<SubscriptItem>& b)
{
    const bool onlyIntegers = std::all_of(a.begin(), a.end(), [](const SubscriptItem& it) {
        return it.kind == SubscriptItem::Kind::Integer;
    });
    if (onlyIntegers) {
        // Each integer removes its axis, so b indexes the axes that follow: one subscript.
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }
    std::size_t cursor = 0; // the next item of a whose axis b's next item indexes
    auto nextAxis = [&]() {
        while (cursor < a.size() && a[cursor].kind == SubscriptItem::Kind::Integer)
            ++cursor;
        return cursor;
    };
    for (const SubscriptItem& it : b) {
        if (it.kind == SubscriptItem::Kind::Ellipsis)
            reader.failAtChar(it.textBegin,
                              "chained subscripts: '...' after a subscript with slices covers axes "
                              "whose number depends on the input: write one subscript");
        const std::size_t k = nextAxis();
        if (it.kind == SubscriptItem::Kind::NewAxis) {
            a.insert(a.begin() + std::ptrdiff_t(k), it);
            ++cursor;
            continue;
        }
        if (k == a.size()) { // the axes a leaves untouched
            a.push_back(it);
            cursor = a.size();
            continue;
        }
        SubscriptItem& target = a[k];
        if (target.kind == SubscriptItem::Kind::Ellipsis)
            reader.failAtChar(it.textBegin, "chained subscripts: '" + it.text +
                                                "' indexes an axis of the '...' of the subscript "
                                                "before, whose axes depend on the input's rank: "
                                                "write one subscript");
        if (fullSlice(it)) { // ':' keeps the axis as it is
            ++cursor;
            continue;
        }
        if (fullSlice(target)) {
            target = it;
            ++cursor;
            continue;
        }
        if (target.kind == SubscriptItem::Kind::NewAxis &&
            it.kind == SubscriptItem::Kind::Integer && (*it.start == 0 || *it.start == -1)) {
            a.erase(a.begin() + std::ptrdiff_t(k)); // indexing the new axis undoes it
            continue;
        }
        reader.failAtChar(it.textBegin,
                          "chained subscripts: '" + it.text + "' indexes the result of '" +
                              target.text +
                              "', which depends on the axis' size: write one subscript");
    }
    return a;
}

CallTranslation chained(CallReader& reader, const std::string& name)
{
    std::vector<SubscriptItem> items;
    std::vector<Subscript> subscripts;
    const std::size_t first = reader.pos();
    std::string_view text = reader.text();
    for (;;) {
        reader.skipSpace();
        if (reader.peek() != '[') break;
        std::size_t pos = reader.pos() + 1;
        subscripts.push_back(readSubscriptAt(text, pos, name));
        reader.setPos(pos);
    }
    const std::size_t last = reader.pos();
    if (!reader.atEnd()) reader.fail(reader.pos(), "unexpected text after the subscript");
    CallTranslation t;
    t.op = "getitem";
    t.tensor = name;
    t.function = name + std::string(text.substr(first, last - first));
    if (subscripts.size() == 1) { // one subscript: getitem reads it as written
        t.attrs.emplace("expr", Attr(name + std::string(text.substr(first, last - first))));
        return t;
    }
    for (std::size_t k = 0; k < subscripts.size(); ++k) {
        const Subscript& s = subscripts[k];
        if (s.form == Subscript::Form::List && s.wholeList) // an index array, for NumPy
            reader.failAtChar(s.wholeList->textBegin,
                              "chained subscripts compose integers, slices, None and ... only: "
                              "the list '" +
                                  s.wholeList->text + "' is not one of them");
        for (const SubscriptItem& it : s.items)
            if (!basic(it))
                reader.failAtChar(it.textBegin,
                                  "chained subscripts compose integers, slices, None and ... "
                                  "only: '" +
                                      it.text + "' is not one of them");
        items = k == 0 ? s.items : compose(reader, std::move(items), s.items);
    }
    std::string expr = name + "[";
    for (std::size_t k = 0; k < items.size(); ++k)
        expr += (k ? ", " : "") + items[k].text;
    expr += items.empty() ? "()]" : "]";
    t.attrs.emplace("expr", Attr(expr));
    t.notes.push_back("the chained subscripts read as one: " + expr);
    return t;
}

} // namespace

bool looksLikeCall(std::string_view text)
{
    CallReader reader(text);
    try {
        reader.skipAssignment();
        reader.skipSpace();
        if (!isIdentStart(reader.peek())) return false;
        reader.dottedName();
        reader.skipSpace();
        if (reader.peek() == '(') return true;
        if (reader.peek() != '[') return false;
        // x[...][...]: a second subscript after the first.
        std::size_t pos = reader.pos() + 1;
        readSubscriptAt(text, pos);
        reader.setPos(pos);
        reader.skipSpace();
        return reader.peek() == '[';
    } catch (const OpError&) {
        return false;
    }
}

CallTranslation translateCall(std::string_view text, const std::optional<Shape>& inputShape)
{
    CallReader reader(text);
    reader.skipAssignment();
    reader.skipSpace();
    if (reader.atEnd()) reader.fail(reader.pos(), "the text is empty: paste a call");
    if (!isIdentStart(reader.peek()))
        reader.fail(reader.pos(), "expected a call such as tf.strided_slice(x, ...)");
    Call call;
    call.functionBegin = reader.charPos(reader.pos());
    call.function = reader.dottedName();
    reader.skipSpace();
    if (reader.peek() == '[') return chained(reader, call.function);
    if (reader.peek() != '(') reader.fail(reader.pos(), "expected '(' after " + call.function);
    reader.setPos(reader.pos() + 1);
    call.args = reader.arguments(call.closeAt);
    if (!reader.atEnd()) reader.fail(reader.pos(), "unexpected text after the call");

    const std::string& f = call.function;
    const std::string tf = tensorflowName(f);
    const bool raw = f.find("raw_ops.") != std::string::npos;
    const bool v1 = f.find("compat.v1.") != std::string::npos;
    CallTranslation t;
    const std::string lastPart = f.substr(f.rfind('.') == std::string::npos ? 0 : f.rfind('.') + 1);
    const std::string receiver = f.find('.') == std::string::npos ? "" : f.substr(0, f.rfind('.'));
    if (!raw && tf == "strided_slice") {
        const Binder b(reader, call,
                       {{"input_", "begin", "end", "strides", "begin_mask", "end_mask",
                         "ellipsis_mask", "new_axis_mask", "shrink_axis_mask", "var", "name"},
                        3});
        t = stridedSlice(b, false);
    } else if (raw && tf == "StridedSlice") {
        const Binder b(reader, call,
                       {{"input", "begin", "end", "strides", "begin_mask", "end_mask",
                         "ellipsis_mask", "new_axis_mask", "shrink_axis_mask", "name"},
                        4,
                        true});
        t = stridedSlice(b, true);
    } else if (!raw && tf == "slice") {
        const Binder b(reader, call, {{"input_", "begin", "size", "name"}, 3});
        t = slice(b, false);
    } else if (raw && tf == "Slice") {
        const Binder b(reader, call, {{"input", "begin", "size", "name"}, 3, true});
        t = slice(b, true);
    } else if (!raw && tf == "gather") {
        const Signature sig =
            v1 ? Signature{{"params", "indices", "validate_indices", "name", "axis", "batch_dims"},
                           2}
               : Signature{{"params", "indices", "validate_indices", "axis", "batch_dims", "name"},
                           2};
        t = gather(Binder(reader, call, sig));
    } else if (raw && tf == "GatherV2") {
        t = gather(
            Binder(reader, call, {{"params", "indices", "axis", "batch_dims", "name"}, 3, true}));
    } else if (f == "paddle.strided_slice" || f == "paddle.tensor.strided_slice") {
        t = paddleStridedSlice(
            Binder(reader, call, {{"x", "axes", "starts", "ends", "strides", "name"}, 5}));
    } else if (f == "torch.narrow" || f == "torch.Tensor.narrow") {
        const Binder b(reader, call, {{"input", "dim", "start", "length"}, 4});
        t = narrow(b, b.tensorName("input"), inputShape);
    } else if (lastPart == "narrow" && !receiver.empty() && tf.empty()) {
        // x.narrow(dim, start, length): the receiver is the tensor.
        t = narrow(Binder(reader, call, {{"dim", "start", "length"}, 3}), receiver, inputShape);
    } else if (f == "np.take" || f == "numpy.take") {
        const Binder b(reader, call, {{"a", "indices", "axis", "out", "mode"}, 2});
        t = take(b, b.tensorName("a"), inputShape);
    } else if (lastPart == "take" && !receiver.empty() && tf.empty() &&
               !receiver.starts_with("torch")) {
        // x.take(indices, axis=...): ndarray's method.
        t = take(Binder(reader, call, {{"indices", "axis", "out", "mode"}, 1}), receiver,
                 inputShape);
    } else {
        reader.failAtChar(call.functionBegin,
                          "SliceScope does not read " + f +
                              "(...): it reads tf.strided_slice, tf.slice, tf.gather, "
                              "paddle.strided_slice, torch.narrow (x.narrow), np.take (x.take) "
                              "and subscripts x[...][...]");
    }
    t.function = f;
    return t;
}

} // namespace ss
