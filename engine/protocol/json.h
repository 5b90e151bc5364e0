// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ss {

/// The text of a number that is echoed rather than read (a request's `id`): kept only where
/// asked for, so that a tensor's millions of numbers cost nothing more.
class JsonNumberText
{
public:
    JsonNumberText() = default;
    explicit JsonNumberText(std::string_view text) : m_text(new std::string(text)) {}
    JsonNumberText(const JsonNumberText& o)
        : m_text(o.m_text ? new std::string(*o.m_text) : nullptr)
    {
    }
    JsonNumberText(JsonNumberText&& o) noexcept : m_text(std::exchange(o.m_text, nullptr)) {}
    JsonNumberText& operator=(JsonNumberText o) noexcept
    {
        std::swap(m_text, o.m_text);
        return *this;
    }
    ~JsonNumberText() { delete m_text; }
    /// The text as written, or null if it was not kept.
    const std::string* get() const { return m_text; }

private:
    std::string* m_text = nullptr;
};

/// A JSON number as it was written. Integers are kept exactly (no trip through double), and each
/// float form is rounded once from the text, so a float32 element read from `value32` is exactly
/// what NumPy's float32 parser gives.
struct JsonNumber
{
    double value = 0;           ///< nearest double
    std::int64_t integer = 0;   ///< exact, when fitsInt64
    std::uint64_t uinteger = 0; ///< exact, when fitsUInt64 (uint64 tensors above 2^63 - 1)
    float value32 = 0;          ///< nearest float32 (±inf if overflows32)
    bool isInteger = false;     ///< written without a fraction or an exponent
    bool fitsInt64 = false;     ///< isInteger and within int64
    bool fitsUInt64 = false;    ///< isInteger and within uint64
    bool overflows32 = false;   ///< finite, but beyond float32's largest value
    /// The text as written, for an `id` only: JsonWriter writes it back byte for byte (an
    /// integer beyond 64 bits, 1e400, 1.50 come back as sent).
    JsonNumberText text;
};

/// A parsed JSON value. Object members keep the order they were written in; a parsed object
/// never has two members with the same name (the parser refuses that).
class Json
{
public:
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };
    using Array = std::vector<Json>;
    using Member = std::pair<std::string, Json>;
    using Object = std::vector<Member>;

    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool b) : m_value(b) {}
    Json(int v) : Json(std::int64_t(v)) {}
    Json(std::int64_t v);
    Json(double v);
    Json(const JsonNumber& n) : m_value(n) {}
    Json(std::string s) : m_value(std::move(s)) {}
    Json(const char* s) : m_value(std::string(s)) {}
    Json(Array a) : m_value(std::move(a)) {}
    Json(Object o) : m_value(std::move(o)) {}

    Type type() const { return Type(m_value.index()); }
    bool isNull() const { return type() == Type::Null; }
    bool isBool() const { return type() == Type::Bool; }
    bool isNumber() const { return type() == Type::Number; }
    bool isString() const { return type() == Type::String; }
    bool isArray() const { return type() == Type::Array; }
    bool isObject() const { return type() == Type::Object; }
    /// A number written as an integer that fits int64.
    bool isInt64() const { return isNumber() && number().fitsInt64; }

    bool toBool() const { return std::get<bool>(m_value); }
    const JsonNumber& number() const { return std::get<JsonNumber>(m_value); }
    std::int64_t toInt64() const { return number().integer; }
    const std::string& toString() const { return std::get<std::string>(m_value); }
    const Array& toArray() const { return std::get<Array>(m_value); }
    const Object& toObject() const { return std::get<Object>(m_value); }

    /// The member `key` of an object; null if absent or if this is not an object.
    const Json* find(std::string_view key) const;
    /// "null", "a boolean", "a number", "a string", "a list" or "an object", for messages.
    std::string_view typeName() const;

private:
    std::variant<std::monostate, bool, JsonNumber, std::string, Array, Object> m_value;
};

/// Objects and arrays may nest this deep; deeper text is refused rather than overflowing the
/// stack.
inline constexpr int kMaxJsonDepth = 128;

/// Parses one JSON text (RFC 8259, UTF-8). Throws OpError(bad_request) whose message names the
/// problem and its 0-based character (code point) position, which is also the error's
/// position(). Refused besides malformed text: invalid UTF-8, unpaired surrogates, duplicate
/// member names, numbers beyond float64's range, nesting deeper than kMaxJsonDepth. The one
/// exception: the numbers in the member `id` of a top-level object (a request's, an automation
/// command's) keep their text (JsonNumber::text), whatever their range, to be echoed as sent.
Json parseJson(std::string_view text);

/// The 0-based character (code point) position of byte `offset` in UTF-8 `text`.
int characterPosition(std::string_view text, std::size_t offset);

/// The byte offset of the first invalid UTF-8 sequence in `text`, or nullopt if it is valid.
std::optional<std::size_t> findInvalidUtf8(std::string_view text);
/// Appends code point `cp` (at most U+10FFFF, not a surrogate) as UTF-8.
void appendUtf8(std::string& out, char32_t cp);
/// The code points of UTF-8 `text`; each byte of an invalid sequence becomes U+FFFD.
std::u32string decodeUtf8(std::string_view text);

/// Appends `s` as a quoted JSON string: `"` and `\` escaped, control characters as \n, \t or
/// \u00XX, other text as UTF-8. Bytes that are not valid UTF-8 (which nothing read through the
/// protocol can contain) are written as U+FFFD, so the output is always valid JSON.
void appendJsonString(std::string& out, std::string_view s);
/// Appends a float32 in the shortest form that reads back as the same float32, or one of the
/// strings "nan", "inf", "-inf".
void appendFloat32(std::string& out, float v);
/// The same for float64.
void appendFloat64(std::string& out, double v);

/// Writes compact JSON (no spaces, no newlines) into a string, keeping track of commas.
/// Tensor elements go through array(), which writes millions of numbers without per-element
/// bookkeeping.
class JsonWriter
{
public:
    explicit JsonWriter(std::string& out) : m_out(out) {}

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    /// The name of the next object member.
    void key(std::string_view name);

    void null();
    void value(bool b);
    void value(int v) { value(std::int64_t(v)); }
    void value(std::int64_t v);
    /// A float attribute or result: shortest double form that still reads as a float ("1.0"),
    /// non-finite values as the strings "nan", "inf", "-inf".
    void value(double v);
    void value(std::string_view s);
    void value(const char* s) { value(std::string_view(s)); }
    void value(const std::string& s) { value(std::string_view(s)); }
    /// Any parsed value. Numbers are written as read: integers exactly, floats as the same
    /// double; an integer beyond int64 is written as its nearest double.
    void value(const Json& json);

    /// One array of tensor elements: bool as true/false, integers exactly, float32 and float64
    /// in their own shortest forms (appendFloat32/appendFloat64), strings escaped.
    template <class T> void array(const T* values, std::int64_t count);

    /// Already-encoded JSON as the next value.
    void raw(std::string_view json);

private:
    void separate();

    std::string& m_out;
    std::vector<bool> m_hasItems; ///< per open container: has it an item already?
    bool m_afterKey = false;
};

} // namespace ss
