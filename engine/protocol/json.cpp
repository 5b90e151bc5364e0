// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/json.h"

#include "core/error.h"
#include "core/tensor.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace ss {

Json::Json(std::int64_t v)
{
    JsonNumber n;
    n.value = double(v);
    n.value32 = float(v);
    n.integer = v;
    n.isInteger = n.fitsInt64 = true;
    n.fitsUInt64 = v >= 0;
    n.uinteger = std::uint64_t(v);
    m_value = n;
}

Json::Json(double v)
{
    JsonNumber n;
    n.value = v;
    n.value32 = float(v);
    n.overflows32 = std::isfinite(v) && !std::isfinite(n.value32);
    m_value = n;
}

const Json* Json::find(std::string_view key) const
{
    if (!isObject()) return nullptr;
    for (const auto& [name, value] : toObject())
        if (name == key) return &value;
    return nullptr;
}

std::string_view Json::typeName() const
{
    switch (type()) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "a list";
    case Type::Object: break;
    }
    return "an object";
}

// ---------------------------------------------------------------------------------------------
// UTF-8

namespace {

// Length of the valid UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates, at most
// U+10FFFF), or 0 if the bytes there are not one.
int utf8Length(const unsigned char* p, std::size_t avail)
{
    const unsigned char c = p[0];
    if (c < 0x80) return 1;
    auto cont = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
        return k < avail && p[k] >= lo && p[k] <= hi;
    };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80;
        const unsigned char hi = c == 0xED ? 0x9F : 0xBF;
        return cont(1, lo, hi) && cont(2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const unsigned char lo = c == 0xF0 ? 0x90 : 0x80;
        const unsigned char hi = c == 0xF4 ? 0x8F : 0xBF;
        return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

} // namespace

std::optional<std::size_t> findInvalidUtf8(std::string_view text)
{
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const int n = utf8Length(p + i, text.size() - i);
        if (n == 0) return i;
        i += std::size_t(n);
    }
    return std::nullopt;
}

void appendUtf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

std::u32string decodeUtf8(std::string_view text)
{
    std::u32string out;
    out.reserve(text.size());
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const int n = utf8Length(p + i, text.size() - i);
        if (n == 0) {
            out += U'\uFFFD';
            ++i;
            continue;
        }
        char32_t cp = n == 1 ? p[i] : n == 2 ? p[i] & 0x1F : n == 3 ? p[i] & 0x0F : p[i] & 0x07;
        for (int k = 1; k < n; ++k)
            cp = (cp << 6) | (p[i + std::size_t(k)] & 0x3F);
        out += cp;
        i += std::size_t(n);
    }
    return out;
}

int characterPosition(std::string_view text, std::size_t offset)
{
    int chars = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        chars += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    return chars;
}

// ---------------------------------------------------------------------------------------------
// Parser

namespace {

std::string hexByte(unsigned char c)
{
    static const char* hex = "0123456789abcdef";
    return std::string("0x") + hex[c >> 4] + hex[c & 15];
}

// Unicode's name of a code point: "U+000A", "U+FEFF".
std::string codePointName(char32_t cp)
{
    char name[16];
    std::snprintf(name, sizeof name, "U+%04X", unsigned(cp));
    return name;
}

// ASCII only: the C library's isalpha() follows the locale.
bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

class Parser
{
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    Json document()
    {
        // A UTF-8 byte-order mark may start the text, as Windows Notepad saves one at the start of
        // a file: RFC 8259 (section 8.1) lets a reader ignore it, and this one does.
        if (m_text.starts_with("\xEF\xBB\xBF")) m_pos = 3;
        skipSpace();
        Json v = value(0);
        skipSpace();
        if (m_pos < m_text.size())
            fail("unexpected " + describe(m_pos) + " after the JSON value", m_pos);
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what, std::size_t at) const
    {
        const int position = characterPosition(m_text, at);
        throw OpError(ErrorCode::BadRequest,
                      "invalid JSON: " + what + " at character " + std::to_string(position),
                      position);
    }

    // The character at `at` for a message: 'x', a control character's escape, a byte value.
    std::string describe(std::size_t at) const
    {
        if (at >= m_text.size()) return "end of text";
        const auto c = static_cast<unsigned char>(m_text[at]);
        if (c >= 0x20 && c < 0x7F) return std::string("character '") + char(c) + "'";
        if (c < 0x80) return "control character " + codePointName(c);
        const auto* p = reinterpret_cast<const unsigned char*>(m_text.data()) + at;
        const int n = utf8Length(p, m_text.size() - at);
        if (n == 0) return "invalid UTF-8 byte " + hexByte(c);
        // Its code point too: a character out of place may be invisible (a byte-order mark
        // U+FEFF, a zero-width or no-break space) or look like another ('\u2019' for "'").
        const std::string_view character = m_text.substr(at, std::size_t(n));
        return "character '" + std::string(character) + "' (" +
               codePointName(decodeUtf8(character)[0]) + ")";
    }

    void skipSpace()
    {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            ++m_pos;
        }
    }

    Json value(int depth)
    {
        if (m_pos >= m_text.size()) fail("expected a value but the text ended", m_pos);
        const char c = m_text[m_pos];
        if (c == '{') return object(depth + 1);
        if (c == '[') return array(depth + 1);
        if (c == '"') return Json(string());
        const bool signedWord =
            c == '-' && m_pos + 1 < m_text.size() && isLetter(m_text[m_pos + 1]);
        if (isLetter(c) || signedWord) return word();
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        fail("expected a value, found " + describe(m_pos), m_pos);
    }

    // true, false, null, and a helpful refusal of everything else spelled with letters.
    Json word()
    {
        const std::size_t start = m_pos;
        std::size_t end = start + 1;
        while (end < m_text.size() &&
               (isLetter(m_text[end]) || (m_text[end] >= '0' && m_text[end] <= '9')))
            ++end;
        const std::string_view w = m_text.substr(start, end - start);
        m_pos = end;
        if (w == "true") return Json(true);
        if (w == "false") return Json(false);
        if (w == "null") return Json();
        std::string hint;
        for (std::string_view special : {"nan", "NaN", "inf", "-inf", "Infinity", "-Infinity"})
            if (w == special)
                hint = std::string(" (in a float tensor write the string \"") +
                       (w[0] == 'n' || w[0] == 'N' ? "nan"
                        : w[0] == '-'              ? "-inf"
                                                   : "inf") +
                       "\")";
        const std::string shown =
            w.size() > 40 ? std::string(w.substr(0, 37)) + "..." : std::string(w);
        fail("unknown word '" + shown + "': JSON has only true, false and null" + hint, start);
    }

    void enter(int depth, std::size_t at) const
    {
        if (depth > kMaxJsonDepth)
            fail("lists and objects nested deeper than " + std::to_string(kMaxJsonDepth) +
                     " levels",
                 at);
    }

    Json object(int depth)
    {
        enter(depth, m_pos);
        ++m_pos; // {
        Json::Object members;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return Json(std::move(members));
        }
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                fail("expected a member name in double quotes, found " + describe(m_pos), m_pos);
            const std::size_t keyAt = m_pos;
            std::string key = string();
            for (const auto& member : members)
                if (member.first == key) fail("duplicate member name \"" + key + "\"", keyAt);
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':')
                fail("expected ':' after a member name, found " + describe(m_pos), m_pos);
            ++m_pos;
            skipSpace();
            // A top-level `id` is echoed, not read: its numbers keep their text.
            const bool keep = depth == 1 && key == "id";
            if (keep) m_keepNumberText = true;
            Json v = value(depth);
            if (keep) m_keepNumberText = false;
            members.emplace_back(std::move(key), std::move(v));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                skipSpace();
                if (m_pos < m_text.size() && m_text[m_pos] == '}')
                    fail("trailing comma before '}'", m_pos);
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                return Json(std::move(members));
            }
            fail("expected ',' or '}' after an object member, found " + describe(m_pos), m_pos);
        }
    }

    Json array(int depth)
    {
        enter(depth, m_pos);
        ++m_pos; // [
        Json::Array items;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return Json(std::move(items));
        }
        while (true) {
            skipSpace();
            items.push_back(value(depth));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                skipSpace();
                if (m_pos < m_text.size() && m_text[m_pos] == ']')
                    fail("trailing comma before ']'", m_pos);
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                return Json(std::move(items));
            }
            fail("expected ',' or ']' after a list element, found " + describe(m_pos), m_pos);
        }
    }

    unsigned hex4(std::size_t at) const
    {
        unsigned v = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const char c = at + k < m_text.size() ? m_text[at + k] : '\0';
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= unsigned(c - 'A' + 10);
            else
                fail("\\u must be followed by four hex digits", at - 2);
        }
        return v;
    }

    std::string string()
    {
        const std::size_t start = m_pos;
        ++m_pos; // "
        std::string out;
        while (true) {
            // Copy the run of plain characters in one go.
            std::size_t run = m_pos;
            while (run < m_text.size()) {
                const auto c = static_cast<unsigned char>(m_text[run]);
                if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
                ++run;
            }
            out.append(m_text, m_pos, run - m_pos);
            m_pos = run;
            if (m_pos >= m_text.size()) fail("unterminated string (it starts here)", start);
            const auto c = static_cast<unsigned char>(m_text[m_pos]);
            if (c == '"') {
                ++m_pos;
                return out;
            }
            if (c < 0x20) fail(describe(m_pos) + " inside a string (escape it, e.g. \\n)", m_pos);
            if (c >= 0x80) {
                const int n =
                    utf8Length(reinterpret_cast<const unsigned char*>(m_text.data()) + m_pos,
                               m_text.size() - m_pos);
                if (n == 0) fail(describe(m_pos) + " inside a string", m_pos);
                out.append(m_text, m_pos, std::size_t(n));
                m_pos += std::size_t(n);
                continue;
            }
            escape(out);
        }
    }

    void escape(std::string& out)
    {
        const std::size_t at = m_pos;
        if (m_pos + 1 >= m_text.size()) fail("unterminated string", at);
        const char e = m_text[m_pos + 1];
        m_pos += 2;
        switch (e) {
        case '"': out += '"'; return;
        case '\\': out += '\\'; return;
        case '/': out += '/'; return;
        case 'b': out += '\b'; return;
        case 'f': out += '\f'; return;
        case 'n': out += '\n'; return;
        case 'r': out += '\r'; return;
        case 't': out += '\t'; return;
        case 'u': break;
        default: fail("invalid escape in a string: backslash followed by " + describe(at + 1), at);
        }
        std::uint32_t cp = hex4(m_pos);
        m_pos += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            fail("unpaired surrogate \\u" + std::string(m_text.substr(at + 2, 4)) + " in a string",
                 at);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!m_text.substr(m_pos).starts_with("\\u"))
                fail("unpaired surrogate \\u" + std::string(m_text.substr(at + 2, 4)) +
                         " in a string",
                     at);
            const std::uint32_t low = hex4(m_pos + 2);
            if (low < 0xDC00 || low > 0xDFFF)
                fail("unpaired surrogate \\u" + std::string(m_text.substr(at + 2, 4)) +
                         " in a string",
                     at);
            m_pos += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, cp);
    }

    // Decimal order of magnitude of a number whose float parse went out of range: positive for
    // overflow, negative or zero for underflow.
    static long long magnitude(std::string_view digits, std::string_view fraction, long long exp)
    {
        const std::size_t lead = digits.find_first_not_of('0');
        if (lead != std::string_view::npos) return exp + (long long)(digits.size() - lead);
        const std::size_t zeros = fraction.find_first_not_of('0');
        return exp - (long long)(zeros == std::string_view::npos ? fraction.size() : zeros);
    }

    Json number()
    {
        const std::size_t start = m_pos;
        auto digitsFrom = [&](std::size_t i) {
            while (i < m_text.size() && m_text[i] >= '0' && m_text[i] <= '9')
                ++i;
            return i;
        };
        std::size_t i = start;
        const bool negative = m_text[i] == '-';
        if (negative) ++i;
        const std::size_t intBegin = i;
        const std::size_t intEnd = digitsFrom(i);
        if (intEnd == intBegin) fail("a number needs digits after '-'", start);
        if (m_text[intBegin] == '0' && intEnd - intBegin > 1)
            fail("numbers cannot have leading zeros", start);
        i = intEnd;
        std::string_view fraction;
        bool isInteger = true;
        if (i < m_text.size() && m_text[i] == '.') {
            const std::size_t fracEnd = digitsFrom(i + 1);
            if (fracEnd == i + 1) fail("a number needs digits after '.'", i);
            fraction = m_text.substr(i + 1, fracEnd - i - 1);
            i = fracEnd;
            isInteger = false;
        }
        long long exponent = 0;
        if (i < m_text.size() && (m_text[i] == 'e' || m_text[i] == 'E')) {
            std::size_t k = i + 1;
            const bool negExp = k < m_text.size() && m_text[k] == '-';
            if (k < m_text.size() && (m_text[k] == '+' || m_text[k] == '-')) ++k;
            const std::size_t expEnd = digitsFrom(k);
            if (expEnd == k) fail("a number needs digits in its exponent", i);
            for (std::size_t d = k; d < expEnd && exponent < 100000; ++d)
                exponent = exponent * 10 + (m_text[d] - '0');
            if (negExp) exponent = -exponent;
            i = expEnd;
            isInteger = false;
        }
        m_pos = i;
        const char* first = m_text.data() + start;
        const char* last = m_text.data() + i;
        const long long order =
            magnitude(m_text.substr(intBegin, intEnd - intBegin), fraction, exponent);

        JsonNumber n;
        n.isInteger = isInteger;
        if (m_keepNumberText)
            n.text = JsonNumberText(std::string_view(first, std::size_t(last - first)));
        if (isInteger) {
            n.fitsInt64 = std::from_chars(first, last, n.integer).ec == std::errc();
            n.fitsUInt64 = std::from_chars(first, last, n.uinteger).ec == std::errc();
        }
        if (std::from_chars(first, last, n.value).ec != std::errc()) {
            // Beyond float64 is refused, except in an id, which is only echoed.
            if (order > 0 && !m_keepNumberText)
                fail("number " + std::string(m_text.substr(start, i - start)) +
                         " is beyond the range of float64",
                     start);
            const double size = order > 0 ? std::numeric_limits<double>::infinity() : 0.0;
            n.value = negative ? -size : size; // underflow rounds to zero
        }
        if (std::from_chars(first, last, n.value32).ec != std::errc()) {
            const float inf = std::numeric_limits<float>::infinity();
            n.overflows32 = order > 0 && std::abs(n.value) >= 1;
            n.value32 = n.overflows32 ? (negative ? -inf : inf) : (negative ? -0.0f : 0.0f);
        }
        return Json(n);
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    bool m_keepNumberText = false;
};

} // namespace

Json parseJson(std::string_view text)
{
    return Parser(text).document();
}

// ---------------------------------------------------------------------------------------------
// Writer

void appendJsonString(std::string& out, std::string_view s)
{
    static const char* hex = "0123456789abcdef";
    out += '"';
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    std::size_t i = 0;
    while (i < s.size()) {
        std::size_t run = i;
        while (run < s.size() && p[run] >= 0x20 && p[run] < 0x80 && p[run] != '"' && p[run] != '\\')
            ++run;
        out.append(s, i, run - i);
        i = run;
        if (i >= s.size()) break;
        const unsigned char c = p[i];
        if (c >= 0x80) {
            const int n = utf8Length(p + i, s.size() - i);
            if (n == 0) {
                out += "\xEF\xBF\xBD"; // U+FFFD
                ++i;
            } else {
                out.append(s, i, std::size_t(n));
                i += std::size_t(n);
            }
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        ++i;
    }
    out += '"';
}

namespace {

template <class T> void appendFloating(std::string& out, T v)
{
    if (std::isnan(v)) {
        out += "\"nan\"";
    } else if (std::isinf(v)) {
        out += v > 0 ? "\"inf\"" : "\"-inf\"";
    } else {
        char buf[40];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
    }
}

template <class T> void appendInteger(std::string& out, T v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

} // namespace

void appendFloat32(std::string& out, float v)
{
    appendFloating(out, v);
}
void appendFloat64(std::string& out, double v)
{
    appendFloating(out, v);
}

void JsonWriter::separate()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_hasItems.empty()) {
        if (m_hasItems.back()) m_out += ',';
        m_hasItems.back() = true;
    }
}

void JsonWriter::beginObject()
{
    separate();
    m_out += '{';
    m_hasItems.push_back(false);
}

void JsonWriter::endObject()
{
    m_out += '}';
    m_hasItems.pop_back();
}

void JsonWriter::beginArray()
{
    separate();
    m_out += '[';
    m_hasItems.push_back(false);
}

void JsonWriter::endArray()
{
    m_out += ']';
    m_hasItems.pop_back();
}

void JsonWriter::key(std::string_view name)
{
    separate();
    appendJsonString(m_out, name);
    m_out += ':';
    m_afterKey = true;
}

void JsonWriter::null()
{
    separate();
    m_out += "null";
}

void JsonWriter::value(bool b)
{
    separate();
    m_out += b ? "true" : "false";
}

void JsonWriter::value(std::int64_t v)
{
    separate();
    appendInteger(m_out, v);
}

void JsonWriter::value(double v)
{
    separate();
    const std::size_t from = m_out.size();
    appendFloating(m_out, v);
    // Keep it a float for readers that tell 1 from 1.0 (Python's json does).
    if (std::isfinite(v) && m_out.find_first_of(".e", from) == std::string::npos) m_out += ".0";
}

void JsonWriter::value(std::string_view s)
{
    separate();
    appendJsonString(m_out, s);
}

void JsonWriter::raw(std::string_view json)
{
    separate();
    m_out += json;
}

void JsonWriter::value(const Json& json)
{
    switch (json.type()) {
    case Json::Type::Null: null(); return;
    case Json::Type::Bool: value(json.toBool()); return;
    case Json::Type::Number:
        if (const std::string* text = json.number().text.get()) {
            raw(*text); // as it was sent (a request's id)
        } else if (json.number().fitsInt64) {
            value(json.number().integer);
        } else if (json.number().isInteger) {
            // Beyond int64: the nearest double, still written as an integer where it fits.
            separate();
            appendFloat64(m_out, json.number().value);
        } else {
            value(json.number().value);
        }
        return;
    case Json::Type::String: value(std::string_view(json.toString())); return;
    case Json::Type::Array:
        beginArray();
        for (const Json& item : json.toArray())
            value(item);
        endArray();
        return;
    case Json::Type::Object:
        beginObject();
        for (const auto& [name, item] : json.toObject()) {
            key(name);
            value(item);
        }
        endObject();
        return;
    }
}

namespace {
// A real float element: the shortest decimal that reads back as the same value of its type, or
// the strings "nan", "inf", "-inf". At most 26 characters.
template <class T> char* writeReal(char* p, T v)
{
    const double x = realValue(v);
    if (!std::isfinite(x)) {
        const char* text = std::isnan(x) ? "\"nan\"" : x > 0 ? "\"inf\"" : "\"-inf\"";
        const std::size_t n = std::strlen(text);
        std::memcpy(p, text, n);
        return p + n;
    }
    if constexpr (kIsHalfFloat<T>) {
        const std::string s =
            shortestDecimal(x, std::is_same_v<T, Float16> ? DType::Float16 : DType::BFloat16);
        std::memcpy(p, s.data(), s.size());
        return p + s.size();
    } else {
        return std::to_chars(p, p + 32, v).ptr;
    }
}
} // namespace

template <class T> void JsonWriter::array(const T* values, std::int64_t count)
{
    beginArray();
    if (count > 0) {
        m_hasItems.back() = true;
        // Numbers are written into reserved space in chunks, which keeps the hot loop free of
        // reallocation checks.
        constexpr std::int64_t kChunk = 1 << 16;
        for (std::int64_t begin = 0; begin < count; begin += kChunk) {
            const std::int64_t end = std::min(count, begin + kChunk);
            if constexpr (std::is_same_v<T, std::string>) {
                for (std::int64_t i = begin; i < end; ++i) {
                    if (i) m_out += ',';
                    appendJsonString(m_out, values[i]);
                }
            } else {
                // "-2.2250738585072014e-308," and shorter; a complex number is two of them.
                constexpr std::size_t kMaxChars = kIsComplex<T> ? 64 : 32;
                std::size_t used = m_out.size();
                m_out.resize(used + std::size_t(end - begin) * kMaxChars);
                char* p = m_out.data() + used;
                for (std::int64_t i = begin; i < end; ++i) {
                    if (i) *p++ = ',';
                    const T v = values[i];
                    if constexpr (std::is_same_v<T, bool>) {
                        std::memcpy(p, v ? "true" : "false", v ? 4 : 5);
                        p += v ? 4 : 5;
                    } else if constexpr (kIsRealFloat<T>) {
                        p = writeReal(p, v);
                    } else if constexpr (kIsComplex<T>) {
                        *p++ = '[';
                        p = writeReal(p, v.real());
                        *p++ = ',';
                        p = writeReal(p, v.imag());
                        *p++ = ']';
                    } else {
                        p = std::to_chars(p, p + kMaxChars, v).ptr;
                    }
                }
                m_out.resize(std::size_t(p - m_out.data()));
            }
        }
    }
    endArray();
}

template void JsonWriter::array(const bool*, std::int64_t);
template void JsonWriter::array(const std::int8_t*, std::int64_t);
template void JsonWriter::array(const std::uint8_t*, std::int64_t);
template void JsonWriter::array(const std::int16_t*, std::int64_t);
template void JsonWriter::array(const std::int32_t*, std::int64_t);
template void JsonWriter::array(const std::int64_t*, std::int64_t);
template void JsonWriter::array(const std::uint16_t*, std::int64_t);
template void JsonWriter::array(const std::uint32_t*, std::int64_t);
template void JsonWriter::array(const std::uint64_t*, std::int64_t);
template void JsonWriter::array(const Float16*, std::int64_t);
template void JsonWriter::array(const BFloat16*, std::int64_t);
template void JsonWriter::array(const std::complex<float>*, std::int64_t);
template void JsonWriter::array(const std::complex<double>*, std::int64_t);
template void JsonWriter::array(const float*, std::int64_t);
template void JsonWriter::array(const double*, std::int64_t);
template void JsonWriter::array(const std::string*, std::int64_t);

} // namespace ss
