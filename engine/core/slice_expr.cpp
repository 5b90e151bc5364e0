// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slice_expr.h"

#include "core/checked.h"
#include "core/error.h"
#include "core/python_literal.h"
#include "core/strings.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace ss {

namespace {

const char* const kTypeErrorText =
    "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
    "tf.int32/tf.int64 tensors are valid indices, got ";

// A value inside a subscript before we know whether it is an index or a slice part.
struct Atom
{
    enum class Kind { Integer, Float, String, None, Ellipsis, Bool, List, Tuple, Comparison };
    Kind kind = Kind::Integer;
    std::int64_t value = 0;
    double floatValue = 0; ///< Float
    /// Comparison: the tensor compared with a number (x > 3); its operator, and the number's
    /// value (`value` when `compareInteger`, else `floatValue`).
    std::string compareOp;
    bool compareInteger = false;
    bool fits = true; ///< integer within int64
    bool boolValue = false;
    std::string repr;    ///< Python's repr, for TensorFlow's TypeError text
    std::string content; ///< String: the characters it stands for
    std::size_t begin = 0;
    std::size_t end = 0;
    std::vector<Atom> elements; ///< of a List or Tuple
};

// The decimal digits of a non-negative integer written in `base` (2, 8 or 16; any length).
// Python (3.11 on) refuses to print an int of more than 4,300 digits, and a base conversion is
// quadratic in the length, so past that the text says how long the number is instead: a
// 100,000-entry subscript sets mask bit 99,999 and must still be answered at once.
std::string decimalDigits(const std::string& digits, int base)
{
    constexpr std::size_t kMaxDigits = 4300;
    const std::size_t first = std::min(digits.find_first_not_of('0'), digits.size());
    const std::string_view significant = std::string_view(digits).substr(first);
    if (significant.empty()) return "0";
    const double log10Base = std::log10(double(base));
    const double approxDigits = double(significant.size()) * log10Base;
    if (approxDigits > double(kMaxDigits) + 2) // about: the leading digit's own size is not known
        return "a number of about " +
               std::to_string(std::int64_t(double(significant.size() - 1) * log10Base) + 1) +
               " decimal digits";
    // Limbs of nine decimal digits, least significant first, fed `step` input digits at a time
    // (base^step < 2^32, so limb * base^step + carry fits in 64 bits).
    const int step = base == 2 ? 31 : base == 8 ? 10 : 7;
    std::vector<std::uint32_t> limbs{0};
    for (std::size_t pos = 0; pos < significant.size();) {
        const std::size_t n = std::min<std::size_t>(std::size_t(step), significant.size() - pos);
        std::uint64_t multiplier = 1, carry = 0;
        for (std::size_t k = 0; k < n; ++k, ++pos) {
            const char d = significant[pos];
            const int digit = std::isdigit(static_cast<unsigned char>(d))
                                  ? d - '0'
                                  : std::tolower(static_cast<unsigned char>(d)) - 'a' + 10;
            multiplier *= std::uint64_t(base);
            carry = carry * std::uint64_t(base) + std::uint64_t(digit);
        }
        for (std::uint32_t& limb : limbs) {
            const std::uint64_t v = std::uint64_t(limb) * multiplier + carry;
            limb = std::uint32_t(v % 1'000'000'000);
            carry = v / 1'000'000'000;
        }
        for (; carry; carry /= 1'000'000'000)
            limbs.push_back(std::uint32_t(carry % 1'000'000'000));
    }
    std::string out = std::to_string(limbs.back());
    for (auto it = limbs.rbegin() + 1; it != limbs.rend(); ++it) {
        const std::string part = std::to_string(*it);
        out += std::string(9 - part.size(), '0') + part;
    }
    return out;
}

class Parser
{
public:
    explicit Parser(std::string_view text, std::size_t start = 0) : m_s(text), m_pos(start)
    {
        // Positions are reported in characters; counting them once keeps every lookup O(1), so a
        // subscript of 100,000 entries parses in linear time.
        m_charPos.reserve(m_s.size() + 1);
        int position = 0;
        for (const char c : m_s) {
            m_charPos.push_back(position);
            position += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        }
        m_charPos.push_back(position);
    }

    Subscript parse()
    {
        skipSpace();
        if (m_s.size() - m_pos == 0)
            fail(m_pos, "the expression is empty: write x[()] to index with nothing");
        const std::size_t save = m_pos;
        if (isIdentStart(peek())) {
            const std::string name = readIdentifier();
            skipSpace();
            if (peek() == '[') {
                m_name = name;
                ++m_pos;
                Subscript s = body(']');
                expect(']', "expected ']' to close the subscript");
                skipSpace();
                if (m_pos != m_s.size()) fail(m_pos, "unexpected text after the closing ']'");
                return s;
            }
            m_pos = save; // not a name: the text is a bare subscript such as "None, 1"
        }
        Subscript s = body('\0');
        if (m_pos != m_s.size()) fail(m_pos, "unexpected '" + charAt(m_pos) + "'");
        return s;
    }

    // The call reader's entry points (readPythonLiteral, readSubscriptAt).
    PythonLiteral literal()
    {
        skipSpace();
        const Atom a = atom('\0');
        return toLiteral(a);
    }
    Subscript bracketed(std::string name)
    {
        m_name = std::move(name);
        Subscript s = body(']');
        expect(']', "expected ']' to close the subscript");
        return s;
    }
    std::size_t position() const { return m_pos; }

private:
    PythonLiteral toLiteral(const Atom& a) const
    {
        PythonLiteral l;
        switch (a.kind) {
        case Atom::Kind::Integer: l.kind = PythonLiteral::Kind::Integer; break;
        case Atom::Kind::Float: l.kind = PythonLiteral::Kind::Float; break;
        case Atom::Kind::String: l.kind = PythonLiteral::Kind::String; break;
        case Atom::Kind::None: l.kind = PythonLiteral::Kind::None; break;
        case Atom::Kind::Ellipsis: l.kind = PythonLiteral::Kind::Ellipsis; break;
        case Atom::Kind::Bool: l.kind = PythonLiteral::Kind::Bool; break;
        case Atom::Kind::List: l.kind = PythonLiteral::Kind::List; break;
        case Atom::Kind::Tuple: l.kind = PythonLiteral::Kind::Tuple; break;
        case Atom::Kind::Comparison: l.kind = PythonLiteral::Kind::Other; break;
        }
        l.value = a.value;
        l.fits = a.fits;
        l.floatValue = a.floatValue;
        l.boolValue = a.boolValue;
        l.repr = a.repr;
        l.content = a.content;
        l.begin = charPos(a.begin);
        l.end = charPos(a.end);
        for (const Atom& e : a.elements)
            l.elements.push_back(toLiteral(e));
        return l;
    }

    [[noreturn]] void fail(std::size_t bytePos, const std::string& message) const
    {
        // Positions count characters, not bytes: skip UTF-8 continuation bytes.
        int position = 0;
        for (std::size_t i = 0; i < bytePos && i < m_s.size(); ++i)
            position += (static_cast<unsigned char>(m_s[i]) & 0xC0) != 0x80;
        throw OpError(ErrorCode::ParseError,
                      message + " (at position " + std::to_string(position) + ")", position);
    }

    char peek(std::size_t ahead = 0) const
    {
        return m_pos + ahead < m_s.size() ? m_s[m_pos + ahead] : '\0';
    }
    // The whole UTF-8 character starting at `at`, for messages.
    std::string charAt(std::size_t at) const
    {
        std::size_t end = at + 1;
        while (end < m_s.size() && (static_cast<unsigned char>(m_s[end]) & 0xC0) == 0x80)
            ++end;
        return std::string(m_s.substr(at, end - at));
    }
    bool atTerminator(char term) const
    {
        return term == '\0' ? m_pos == m_s.size() : peek() == term;
    }
    static bool isIdentStart(char c)
    {
        return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
    }
    static bool isIdentChar(char c)
    {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    }

    void skipSpace()
    {
        while (m_pos < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_pos])))
            ++m_pos;
    }

    void expect(char c, const std::string& message)
    {
        skipSpace();
        if (peek() != c) fail(m_pos, message);
        ++m_pos;
    }

    std::string readIdentifier()
    {
        const std::size_t start = m_pos;
        while (isIdentChar(peek()) || (peek() == '.' && isIdentStart(peek(1))))
            ++m_pos;
        return std::string(m_s.substr(start, m_pos - start));
    }

    int charPos(std::size_t bytePos) const { return m_charPos[std::min(bytePos, m_s.size())]; }

    // The whole subscript: an empty tuple, a parenthesised tuple, a list, or items with commas.
    Subscript body(char term)
    {
        Subscript s;
        skipSpace();
        if (atTerminator(term))
            fail(m_pos, term == ']' ? "empty subscript: write x[()] to index with nothing"
                                    : "the expression is empty");
        const std::size_t save = m_pos;
        if (peek() == '(' || peek() == '[') {
            const Atom whole = atom(term);
            skipSpace();
            if (atTerminator(term)) {
                if (whole.kind == Atom::Kind::Tuple || whole.kind == Atom::Kind::List) {
                    s.form = whole.kind == Atom::Kind::List ? Subscript::Form::List
                                                            : Subscript::Form::Tuple;
                    for (const Atom& e : whole.elements)
                        s.items.push_back(itemFromAtom(e, e.begin, e.end));
                    if (s.form == Subscript::Form::List)
                        s.wholeList = itemFromAtom(whole, whole.begin, whole.end);
                } else { // (x) is x
                    s.items.push_back(itemFromAtom(whole, whole.begin, whole.end));
                }
                return s;
            }
            m_pos = save; // a list or tuple followed by more items: it is one (invalid) item
        }
        bool comma = false;
        itemList(term, s.items, comma);
        s.form = s.items.size() == 1 && !comma ? Subscript::Form::Single : Subscript::Form::Tuple;
        return s;
    }

    // item (',' item)* [','] up to `close` (not consumed). An empty list is allowed.
    void itemList(char close, std::vector<SubscriptItem>& items, bool& sawComma)
    {
        skipSpace();
        if (atTerminator(close)) return;
        for (;;) {
            items.push_back(item(close));
            skipSpace();
            if (peek() != ',') break;
            sawComma = true;
            ++m_pos;
            skipSpace();
            if (atTerminator(close)) break;
        }
        if (!atTerminator(close)) {
            if (m_pos == m_s.size())
                fail(m_pos, close == '\0' ? "unexpected end"
                                          : std::string("expected '") + close + "' before the end");
            fail(m_pos, std::string("expected ',' or '") + (close ? std::string(1, close) : "end") +
                            "', found '" + charAt(m_pos) + "'");
        }
    }

    bool atItemEnd(char close) const
    {
        return peek() == ',' || peek() == ':' || atTerminator(close) || m_pos == m_s.size();
    }

    SubscriptItem item(char close)
    {
        skipSpace();
        SubscriptItem it;
        const std::size_t start = m_pos;
        std::optional<Atom> first;
        if (peek() != ':') first = atom(close);
        skipSpace();
        if (peek() == ':') {
            it.kind = SubscriptItem::Kind::Slice;
            ++m_pos;
            std::optional<Atom> parts[3] = {first, std::nullopt, std::nullopt};
            skipSpace();
            if (!atItemEnd(close)) parts[1] = atom(close);
            skipSpace();
            if (peek() == ':') {
                ++m_pos;
                skipSpace();
                if (!atItemEnd(close)) parts[2] = atom(close);
            }
            std::optional<std::int64_t>* fields[3] = {&it.start, &it.stop, &it.step};
            for (int k = 0; k < 3; ++k) {
                if (!parts[k] || parts[k]->kind == Atom::Kind::None)
                    continue; // omitted, or None: both mean "not given"
                if (parts[k]->kind == Atom::Kind::Integer && parts[k]->fits) {
                    *fields[k] = parts[k]->value;
                } else if (it.invalidMessage.empty()) {
                    it.invalidMessage = invalidText(*parts[k]);
                    it.invalidBegin = charPos(parts[k]->begin);
                }
            }
        } else {
            if (!first) fail(m_pos, "expected an index, a slice, None or ...");
            return itemFromAtom(*first, start, m_pos);
        }
        setText(it, start, m_pos);
        return it;
    }

    // An item that is a single value (not a slice), written between bytes [from, to).
    SubscriptItem itemFromAtom(const Atom& a, std::size_t from, std::size_t to) const
    {
        SubscriptItem it;
        switch (a.kind) {
        case Atom::Kind::Integer:
            it.kind = a.fits ? SubscriptItem::Kind::Integer : SubscriptItem::Kind::Other;
            it.start = a.value;
            break;
        case Atom::Kind::None: it.kind = SubscriptItem::Kind::NewAxis; break;
        case Atom::Kind::Ellipsis: it.kind = SubscriptItem::Kind::Ellipsis; break;
        case Atom::Kind::Bool:
            it.kind = SubscriptItem::Kind::Bool;
            it.boolValue = a.boolValue;
            break;
        case Atom::Kind::List:
            it.kind = readIndexArray(a, it) ? SubscriptItem::Kind::IndexArray
                                            : SubscriptItem::Kind::Other;
            break;
        case Atom::Kind::Comparison:
            it.kind = SubscriptItem::Kind::IndexArray;
            it.arrayIsBool = true;
            it.comparison =
                SubscriptItem::Comparison{a.compareOp, a.floatValue, a.value, a.compareInteger};
            break;
        default: it.kind = SubscriptItem::Kind::Other; break;
        }
        if (it.kind == SubscriptItem::Kind::Other || it.kind == SubscriptItem::Kind::IndexArray)
            it.invalidMessage = invalidText(a);
        if (it.comparison)
            it.invalidMessage =
                a.repr + " is a boolean tensor, and getitem reads TensorFlow's basic subscripts "
                         "only (integers, slices, None, ...): read the expression as NumPy, "
                         "PyTorch or JAX to use it as a mask, or use the boolean_mask op";
        it.invalidBegin = charPos(a.begin);
        setText(it, from, to);
        if (it.comparison) it.text = a.repr; // the input is x wherever the code names it
        return it;
    }

    // A list of integers and bools nested to a rectangular shape, as NumPy, PyTorch and JAX
    // turn it into an index array; false for anything else (ragged, a float, None, a tuple, an
    // integer past int64), which those libraries refuse or read some other way.
    static bool readIndexArray(const Atom& a, SubscriptItem& it)
    {
        it.arrayShape.clear();
        it.arrayValues.clear();
        bool allBool = true;
        // The shape is set by the first path down; every other list must agree with it.
        for (const Atom* level = &a; level->kind == Atom::Kind::List;
             level = level->elements.empty() ? nullptr : &level->elements.front()) {
            it.arrayShape.push_back(std::int64_t(level->elements.size()));
            if (level->elements.empty()) break;
        }
        auto walk = [&](auto&& self, const Atom& node, std::size_t depth) -> bool {
            if (depth == it.arrayShape.size()) {
                if (node.kind == Atom::Kind::Integer && node.fits) {
                    allBool = false;
                    it.arrayValues.push_back(node.value);
                    return true;
                }
                if (node.kind == Atom::Kind::Bool) {
                    it.arrayValues.push_back(node.boolValue ? 1 : 0);
                    return true;
                }
                return false;
            }
            if (node.kind != Atom::Kind::List ||
                std::int64_t(node.elements.size()) != it.arrayShape[depth])
                return false;
            for (const Atom& e : node.elements)
                if (!self(self, e, depth + 1)) return false;
            return true;
        };
        if (!walk(walk, a, 0)) return false;
        it.arrayIsBool = allBool && !it.arrayValues.empty();
        return true;
    }

    void setText(SubscriptItem& it, std::size_t from, std::size_t to) const
    {
        while (to > from && std::isspace(static_cast<unsigned char>(m_s[to - 1])))
            --to;
        it.text = std::string(m_s.substr(from, to - from));
        it.textBegin = charPos(from);
        it.textEnd = charPos(to);
    }

    static std::string invalidText(const Atom& a)
    {
        if (a.kind == Atom::Kind::Integer)
            return "index " + a.repr +
                   " does not fit in a 64-bit integer, the widest index "
                   "TensorFlow takes";
        return kTypeErrorText + a.repr;
    }

    Atom atom(char close)
    {
        skipSpace();
        Atom a;
        a.begin = m_pos;
        const char c = peek();
        if (c == '.' && peek(1) == '.' && peek(2) == '.') {
            m_pos += 3;
            a.kind = Atom::Kind::Ellipsis;
            a.repr = "Ellipsis";
        } else if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
            number(a);
        } else if (c == '\'' || c == '"') {
            stringLiteral(a);
        } else if (isIdentStart(c)) {
            const std::size_t at = m_pos;
            const std::string name = readIdentifier();
            if (name == "None" || name == "newaxis" || name == "tf.newaxis" ||
                name == "np.newaxis" || name == "numpy.newaxis") {
                a.kind = Atom::Kind::None;
                a.repr = "None";
            } else if (name == "Ellipsis") {
                a.kind = Atom::Kind::Ellipsis;
                a.repr = "Ellipsis";
            } else if (name == "True" || name == "False") {
                a.kind = Atom::Kind::Bool;
                a.boolValue = name == "True";
                a.repr = name;
            } else if (name == m_name && comparisonFollows()) {
                comparison(a);
            } else {
                fail(at, "unknown name '" + name +
                             "': an index is an integer, a slice, None (or tf.newaxis) or ...");
            }
        } else if (c == '[' || c == '(') {
            // Nested brackets recurse; refuse absurd depths rather than overflow the stack.
            if (++m_depth > kMaxNesting)
                fail(m_pos, "too many nested brackets (more than " + std::to_string(kMaxNesting) +
                                ", as in Python)");
            const char closing = c == '[' ? ']' : ')';
            ++m_pos;
            skipSpace();
            bool comma = false;
            while (peek() != closing) {
                a.elements.push_back(atom(closing));
                skipSpace();
                if (peek() == ':')
                    fail(m_pos, "a slice can only stand directly in the subscript, not inside a "
                                "list or tuple");
                if (peek() != ',') break;
                comma = true;
                ++m_pos;
                skipSpace();
            }
            if (peek() != closing)
                fail(m_pos, std::string("expected ',' or '") + closing + "'" +
                                (m_pos == m_s.size() ? " before the end"
                                                     : ", found '" + charAt(m_pos) + "'"));
            ++m_pos;
            --m_depth;
            if (c == '(' && a.elements.size() == 1 && !comma)
                return a.elements.front(); // (x) is just x
            a.kind = c == '[' ? Atom::Kind::List : Atom::Kind::Tuple;
            std::string repr(1, c);
            for (std::size_t k = 0; k < a.elements.size(); ++k)
                repr += (k ? ", " : "") + a.elements[k].repr;
            if (c == '(' && a.elements.size() == 1) repr += ",";
            a.repr = repr + closing;
        } else if (m_pos == m_s.size() || atTerminator(close)) {
            fail(m_pos, "expected an index, a slice, None or ... before the end");
        } else {
            fail(m_pos, "unexpected '" + charAt(m_pos) + "'");
        }
        a.end = m_pos;
        return a;
    }

    // The comparison operator at the read position, or empty.
    std::string comparisonOperator() const
    {
        for (const char* op : {">=", "<=", "==", "!=", ">", "<"}) {
            const std::string_view text(op);
            if (m_s.substr(m_pos, text.size()) == text) return std::string(text);
        }
        return {};
    }
    // After the tensor's name: whether a comparison operator follows (spaces allowed).
    bool comparisonFollows()
    {
        const std::size_t save = m_pos;
        skipSpace();
        const bool follows = !comparisonOperator().empty();
        m_pos = save;
        return follows;
    }

    // The tensor's name has been read: `> 3`, `<= -1.5`, `== 0` follows (a boolean mask).
    void comparison(Atom& a)
    {
        skipSpace();
        a.compareOp = comparisonOperator();
        m_pos += a.compareOp.size();
        skipSpace();
        const char c = peek();
        if (!(c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c)) ||
              (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))))
            fail(m_pos, "expected a number to compare " + m_name + " with");
        Atom operand;
        number(operand);
        if (operand.kind == Atom::Kind::Integer && !operand.fits)
            fail(a.begin, "the number " + operand.repr + " does not fit in a 64-bit integer");
        a.kind = Atom::Kind::Comparison;
        a.compareInteger = operand.kind == Atom::Kind::Integer;
        a.value = operand.value;
        a.floatValue = a.compareInteger ? double(operand.value) : operand.floatValue;
        a.repr = "x " + a.compareOp + " " + operand.repr;
    }

    void number(Atom& a)
    {
        bool negative = false;
        while (peek() == '-' || peek() == '+') {
            negative ^= peek() == '-';
            ++m_pos;
            skipSpace();
        }
        const std::size_t start = m_pos;
        const char c = peek();
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.')
            fail(m_pos, "expected a number after the sign");
        int base = 10;
        if (c == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' ||
                         peek(1) == 'b' || peek(1) == 'B')) {
            const char p = char(std::tolower(static_cast<unsigned char>(peek(1))));
            base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
            m_pos += 2;
        }
        std::string digits;
        bool isFloat = false;
        auto digitOk = [&](char d) {
            if (base == 16) return std::isxdigit(static_cast<unsigned char>(d)) != 0;
            return d >= '0' && d < char('0' + std::min(base, 10));
        };
        for (;;) {
            const char d = peek();
            if (digitOk(d)) {
                digits += d;
                ++m_pos;
            } else if (d == '_' && !digits.empty() && digitOk(peek(1))) {
                ++m_pos;
            } else if (base == 10 && (d == '.' || d == 'e' || d == 'E')) {
                isFloat = true;
                break;
            } else {
                break;
            }
        }
        if (isIdentChar(peek()) && !isFloat) fail(m_pos, "invalid character in number");
        if (isFloat) {
            // Python float literal: digits [. digits] [e [+-] digits]
            m_pos = start;
            std::string text;
            while (std::isdigit(static_cast<unsigned char>(peek())) || peek() == '_')
                text += peek() == '_' ? std::string() : std::string(1, peek()), ++m_pos;
            if (peek() == '.') {
                text += '.';
                ++m_pos;
                while (std::isdigit(static_cast<unsigned char>(peek())) || peek() == '_')
                    text += peek() == '_' ? std::string() : std::string(1, peek()), ++m_pos;
            }
            if (peek() == 'e' || peek() == 'E') {
                text += 'e';
                ++m_pos;
                if (peek() == '+' || peek() == '-') text += peek(), ++m_pos;
                if (!std::isdigit(static_cast<unsigned char>(peek())))
                    fail(m_pos, "expected digits in the exponent");
                while (std::isdigit(static_cast<unsigned char>(peek())))
                    text += peek(), ++m_pos;
            }
            if (isIdentChar(peek())) fail(m_pos, "invalid character in number");
            a.kind = Atom::Kind::Float;
            const double v = std::strtod(text.c_str(), nullptr);
            a.floatValue = negative ? -v : v;
            a.repr = pythonFloatRepr(negative ? -v : v);
            return;
        }
        if (digits.empty()) fail(m_pos, "expected digits");
        if (base == 10 && digits.size() > 1 && digits[0] == '0' &&
            digits.find_first_not_of('0') != std::string::npos)
            fail(start, "leading zeros in decimal integer literals are not permitted");
        // Accumulate as a negative number so INT64_MIN is representable.
        std::int64_t v = 0;
        for (char d : digits) {
            const int digit = std::isdigit(static_cast<unsigned char>(d))
                                  ? d - '0'
                                  : std::tolower(static_cast<unsigned char>(d)) - 'a' + 10;
            if (mulOverflows(v, base, &v) || subOverflows(v, digit, &v)) a.fits = false;
        }
        if (a.fits && !negative) {
            if (v == std::numeric_limits<std::int64_t>::min())
                a.fits = false;
            else
                v = -v;
        }
        a.kind = Atom::Kind::Integer;
        a.value = v;
        a.repr = (negative ? "-" : "") + (base == 10 ? digits : decimalDigits(digits, base));
    }

    void stringLiteral(Atom& a)
    {
        const char quote = peek();
        const std::size_t start = m_pos;
        ++m_pos;
        std::string content;
        while (m_pos < m_s.size() && m_s[m_pos] != quote) {
            char c = m_s[m_pos++];
            if (c == '\\' && m_pos < m_s.size()) {
                c = m_s[m_pos++];
                switch (c) {
                case 'n': c = '\n'; break;
                case 't': c = '\t'; break;
                case 'r': c = '\r'; break;
                case '0': c = '\0'; break;
                default: break; // \\, \', \" and others stand for themselves
                }
            }
            content += c;
        }
        if (m_pos >= m_s.size()) fail(start, "unterminated string");
        ++m_pos;
        a.kind = Atom::Kind::String;
        a.repr = pythonStringRepr(content);
        a.content = std::move(content);
    }

    static constexpr int kMaxNesting = 200;
    std::string_view m_s;
    std::vector<int> m_charPos; ///< characters before each byte offset
    std::size_t m_pos = 0;
    int m_depth = 0;
    /// The tensor's name (`x` in x[...]; a bare subscript compares `x`).
    std::string m_name = "x";
};

} // namespace

Subscript parseSubscript(std::string_view expression)
{
    return Parser(expression).parse();
}

PythonLiteral readPythonLiteral(std::string_view text, std::size_t& pos)
{
    Parser parser(text, pos);
    PythonLiteral literal = parser.literal();
    pos = parser.position();
    return literal;
}

Subscript readSubscriptAt(std::string_view text, std::size_t& pos, std::string name)
{
    Parser parser(text, pos);
    Subscript s = parser.bracketed(std::move(name));
    pos = parser.position();
    return s;
}

Encoding encodeSubscript(const Subscript& subscript)
{
    Encoding enc;
    if (subscript.form == Subscript::Form::Single && subscript.items.size() == 1 &&
        subscript.items[0].kind == SubscriptItem::Kind::Bool)
        invalidArgument("mask cannot be scalar.");
    if (subscript.form == Subscript::Form::List)
        enc.notes.push_back("TensorFlow reads a list subscript as a tuple: x[[a, b]] means "
                            "x[a, b]. NumPy would instead pick elements a and b (advanced "
                            "indexing).");
    auto& s = enc.sparse;
    // Python builds each mask as an unbounded int; the positions of its set bits, per mask, in
    // the order the kernel reads them.
    enum Mask { kBegin, kEnd, kEllipsis, kNewAxis, kShrink, kMasks };
    std::array<std::vector<int>, kMasks> setBits;
    std::array<std::int32_t*, kMasks> fields = {&s.beginMask, &s.endMask, &s.ellipsisMask,
                                                &s.newAxisMask, &s.shrinkAxisMask};
    for (std::size_t k = 0; k < subscript.items.size(); ++k) {
        const SubscriptItem& it = subscript.items[k];
        const int i = int(k);
        // Bits from kMaskBits - 1 on make the mask too big for the kernel's int32; they are
        // refused below.
        auto setBit = [&](Mask mask) {
            setBits[mask].push_back(i);
            if (i < kMaskBits - 1) *fields[mask] |= std::int32_t(1) << i;
        };
        SpecEntry e;
        e.text = it.text;
        e.textBegin = it.textBegin;
        e.textEnd = it.textEnd;
        std::int64_t begin = 0, end = 0, stride = 1;
        switch (it.kind) {
        case SubscriptItem::Kind::Integer: {
            const std::int64_t v = *it.start;
            if (v == std::numeric_limits<std::int64_t>::max())
                invalidArgument("index " + num(v) +
                                " leaves no room for its end (index + 1) in "
                                "a 64-bit integer");
            e.kind = SpecEntry::Kind::Index;
            begin = v;
            end = v + 1;
            e.begin = begin;
            e.end = end;
            e.stride = 1;
            setBit(kShrink);
            break;
        }
        case SubscriptItem::Kind::Slice:
            if (!it.invalidMessage.empty()) invalidArgument(it.invalidMessage);
            e.kind = SpecEntry::Kind::Slice;
            if (it.start)
                begin = *it.start;
            else
                setBit(kBegin);
            if (it.stop)
                end = *it.stop;
            else
                setBit(kEnd);
            stride = it.step.value_or(1);
            e.begin = it.start;
            e.end = it.stop;
            e.stride = stride;
            break;
        case SubscriptItem::Kind::NewAxis:
            e.kind = SpecEntry::Kind::NewAxis;
            setBit(kNewAxis);
            break;
        case SubscriptItem::Kind::Ellipsis:
            e.kind = SpecEntry::Kind::Ellipsis;
            setBit(kEllipsis);
            break;
        case SubscriptItem::Kind::Bool:
            invalidArgument("a bool inside a subscript (" + it.text +
                            ") is not a valid index: TensorFlow stacks it with the other "
                            "begin/end/strides values and fails. Use x[mask] with a whole bool "
                            "tensor for a boolean mask");
        case SubscriptItem::Kind::IndexArray:
        case SubscriptItem::Kind::Other: invalidArgument(it.invalidMessage);
        }
        s.begin.push_back(begin);
        s.end.push_back(end);
        s.strides.push_back(stride);
        enc.entries.push_back(std::move(e));
    }
    static const char* const names[kMasks] = {"begin_mask", "end_mask", "ellipsis_mask",
                                              "new_axis_mask", "shrink_axis_mask"};
    for (int mask = 0; mask < kMasks; ++mask) {
        const std::vector<int>& bits = setBits[std::size_t(mask)];
        if (bits.empty() || bits.back() < kMaskBits - 1) continue;
        std::string binary(std::size_t(bits.back() + 1), '0');
        for (int b : bits)
            binary[binary.size() - 1 - std::size_t(b)] = '1';
        int32AttrOutOfRange(names[mask], decimalDigits(binary, 2));
    }
    return enc;
}

Encoding encodeExpression(std::string_view expression)
{
    return encodeSubscript(parseSubscript(expression));
}

std::string toExpr(const SparseSpec& s, std::vector<std::string>* notes)
{
    const int m = int(s.strides.size());
    if (s.begin.size() != std::size_t(m) || s.end.size() != std::size_t(m) || m >= kMaskBits)
        checkSparseArgShapes({std::int64_t(s.begin.size())}, {std::int64_t(s.end.size())},
                             {std::int64_t(m)});
    const std::uint32_t ellipsisBits = std::uint32_t(s.ellipsisMask);
    if ((ellipsisBits & (ellipsisBits - 1)) != 0)
        invalidArgument("Multiple ellipses in slice spec not allowed");
    auto note = [&](const std::string& text) {
        if (notes) notes->push_back(text);
    };
    auto bit = [](std::int32_t mask, int i) { return ((std::uint32_t(mask) >> i) & 1) != 0; };
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

    std::vector<std::string> parts;
    for (int i = 0; i < m; ++i) {
        const std::int64_t b = s.begin[std::size_t(i)];
        const std::int64_t e = s.end[std::size_t(i)];
        const std::int64_t st = s.strides[std::size_t(i)];
        if (bit(s.ellipsisMask, i)) {
            parts.push_back("...");
            note("entry " + num(i) + ": ellipsis_mask bit set: ...");
        } else if (bit(s.newAxisMask, i)) {
            parts.push_back("None");
            note("entry " + num(i) + ": new_axis_mask bit set: None" +
                 (bit(s.shrinkAxisMask, i) ? " (its shrink bit is ignored: the new axis wins)"
                                           : ""));
        } else if (bit(s.shrinkAxisMask, i)) {
            if (st == 0) invalidArgument("strides[" + num(i) + "] must be non-zero");
            if (st < 0)
                invalidArgument("entry " + num(i) + " is an index with stride " + num(st) +
                                ", which TensorFlow always rejects (\"only stride 1 allowed on "
                                "non-range indexing.\"); no Python subscript produces it");
            parts.push_back(num(b));
            std::string text =
                "entry " + num(i) + ": shrink_axis_mask bit set: the index " + num(b);
            if (bit(s.beginMask, i)) text += " (the begin_mask bit is ignored for an index)";
            if (st != 1) text += " (stride " + num(st) + " is accepted and has no effect)";
            note(text);
        } else {
            const bool omitBegin = bit(s.beginMask, i) || (st > 0 && (b == 0 || b == kMin)) ||
                                   (st < 0 && (b == -1 || b == kMax));
            const bool omitEnd =
                bit(s.endMask, i) || (st > 0 && e == kMax) || (st < 0 && e == kMin);
            std::string part = (omitBegin ? "" : num(b)) + ":" + (omitEnd ? "" : num(e));
            if (st != 1) part += ":" + num(st);
            parts.push_back(part);
            note("entry " + num(i) + ": the slice " + part);
        }
    }
    // A trailing ellipsis is what TensorFlow implies anyway.
    if (!parts.empty() && parts.back() == "..." && bit(s.ellipsisMask, m - 1)) {
        parts.pop_back();
        note("a trailing ... is implied, so it is left out");
    }
    if (parts.empty()) return "x[()]";
    std::string out = "x[";
    for (std::size_t k = 0; k < parts.size(); ++k)
        out += (k ? ", " : "") + parts[k];
    return out + "]";
}

} // namespace ss
