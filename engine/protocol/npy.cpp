// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/npy.h"

#include "core/error.h"
#include "core/mapped_file.h"
#include "core/numpy_strings.h"
#include "core/strings.h"
#include "protocol/atomic_file.h"
#include "protocol/json.h"
#include "protocol/read_file.h"

#include <QBuffer>
#include <QFile>

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <unistd.h>

namespace ss {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLength = 6;
// NumPy's own reader stops at 10000 bytes by default; allow more, but not without bound.
constexpr std::int64_t kMaxHeaderLength = 1 << 20;
// Smaller arrays are read: a read of under 1 MiB costs no more than mapping it and faulting it in.
constexpr std::int64_t kMinMappedBytes = std::int64_t(1) << 20;

std::atomic<bool> g_mapping{false};

// How the file stores one element.
struct Descr
{
    enum class Kind { Plain, Bytes, Unicode };
    Kind kind = Kind::Plain;
    DType dtype = DType::Float32;
    std::int64_t itemSize = 0; ///< bytes per element in the file
    std::int64_t swapSize = 0; ///< bytes per byte-ordered unit (a complex number's part)
    bool swap = false;         ///< the file's byte order is not the machine's
};

// The .npy type code (without its byte-order character) of each numeric dtype but bool. bfloat16
// is the one NumPy has no code for: ml_dtypes registers it with kind 'V', so np.save (and JAX,
// which saves through NumPy) writes '<V2', and jnp.load reads a V2 array back as bfloat16.
struct NpyCode
{
    DType dtype;
    std::string_view code;
};
constexpr NpyCode kNpyCodes[] = {
    {DType::Int8, "i1"},      {DType::UInt8, "u1"},       {DType::Int16, "i2"},
    {DType::UInt16, "u2"},    {DType::Int32, "i4"},       {DType::UInt32, "u4"},
    {DType::Int64, "i8"},     {DType::UInt64, "u8"},      {DType::Float16, "f2"},
    {DType::BFloat16, "V2"},  {DType::Float32, "f4"},     {DType::Float64, "f8"},
    {DType::Complex64, "c8"}, {DType::Complex128, "c16"},
};

std::optional<DType> dtypeFromNpyDescr(std::string_view code)
{
    // The dtype's name, as workarounds for the V2 ambiguity write it (str(array.dtype)).
    if (code == "bfloat16") return DType::BFloat16;
    for (const NpyCode& c : kNpyCodes)
        if (c.code == code) return c.dtype;
    return std::nullopt;
}

std::string npyDescr(DType t)
{
    if (t == DType::Bool) return "|b1";
    for (const NpyCode& c : kNpyCodes)
        if (c.dtype == t) return std::string(dtypeSize(t) == 1 ? "|" : "<") + std::string(c.code);
    return {}; // strings: their length decides (writeNpy)
}

struct Header
{
    Descr descr;
    bool fortranOrder = false;
    Shape shape;
};

class NpyReader
{
public:
    /// `mapFd`: the file's descriptor, if its data may be mapped instead of read (-1: read).
    /// `path`: the file's path, kept with a mapping (mappedFilePath).
    NpyReader(QIODevice& device, std::string name, int mapFd = -1, std::string path = {})
        : m_device(device), m_name(std::move(name)), m_path(std::move(path)), m_mapFd(mapFd)
    {
    }

    /// Every error names the file once, in front: the reader's own, and the engine's while it
    /// makes the tensor (the memory budget spent by other tensors, a failed allocation).
    Tensor read(const Limits& limits)
    {
        try {
            return readArray(limits);
        } catch (const OpError& e) {
            throw OpError(e.code(), m_name + ": " + e.what());
        }
    }

private:
    // Errors say what is wrong without the file's name, which read() puts in front.
    [[noreturn]] static void fail(const std::string& what) { badRequest(what); }

    Tensor readArray(const Limits& limits)
    {
        const Header h = header();
        const bool bytesKind = h.descr.kind == Descr::Kind::Bytes;
        const std::string what = "the array";
        // A mapped array is the file's page cache, not memory the process allocates: only its
        // shape is checked (a file bigger than memory can be used), the limits are for a copy.
        const std::int64_t n = m_mapFd >= 0 ? limits.checkFileBacked(h.shape, h.descr.dtype, what)
                                            : limits.check(h.shape, h.descr.dtype, what);
        if (h.descr.itemSize > 0 && n > std::numeric_limits<std::int64_t>::max() / h.descr.itemSize)
            fail("the array's data size overflows");
        const std::int64_t bytes = n * h.descr.itemSize;
        const std::int64_t remaining = m_device.size() - m_device.pos();
        if (remaining < bytes)
            fail("truncated: the header promises " + num(bytes) + " bytes of data but only " +
                 num(remaining) + " follow");
        // Data the engine can use as it lies in the file is mapped, not copied.
        const std::int64_t offset = m_device.pos();
        if (m_mapFd >= 0 && mappable(h, offset, bytes))
            if (auto data = mapFileRange(m_mapFd, offset, bytes, m_name, m_path))
                return Tensor::wrap(h.descr.dtype, h.shape, std::move(data), limits);
        if (m_mapFd >= 0) limits.check(h.shape, h.descr.dtype, what); // read after all
        // Fortran data is the C-order data of the reversed shape; it is transposed at the end.
        Shape storedShape = h.shape;
        if (h.fortranOrder) std::reverse(storedShape.begin(), storedShape.end());
        Tensor t = Tensor::empty(h.descr.dtype, storedShape, limits);
        if (h.descr.kind == Descr::Kind::Plain)
            readPlain(t, h.descr, bytes);
        else
            readStrings(t, h.descr, bytes);
        if (h.fortranOrder && t.rank() > 1) t = fromFortran(t, h.shape, limits);
        t.setHoldsBytes(bytesKind);
        t.setItemLength(h.descr.itemSize / (bytesKind ? 1 : 4));
        return t;
    }

    // The file's bytes are the tensor's: numbers in the machine's byte order (bool is not: any
    // non-zero byte must become 1), in C order, at an offset that keeps the engine's 64-byte
    // alignment, and big enough to be worth a mapping.
    static bool mappable(const Header& h, std::int64_t offset, std::int64_t bytes)
    {
        return h.descr.kind == Descr::Kind::Plain && !h.descr.swap &&
               h.descr.dtype != DType::Bool && (!h.fortranOrder || h.shape.size() <= 1) &&
               offset % 64 == 0 && bytes >= kMinMappedBytes;
    }

    void readExactly(char* out, std::int64_t count)
    {
        while (count > 0) {
            const qint64 got = m_device.read(out, count);
            if (got <= 0) fail("truncated: the file ends early");
            out += got;
            count -= got;
        }
    }

    Header header()
    {
        char preamble[kMagicLength + 2];
        if (m_device.read(preamble, sizeof preamble) != qint64(sizeof preamble))
            fail("not a .npy file: shorter than the preamble");
        if (std::memcmp(preamble, kMagic, kMagicLength) != 0)
            fail("not a .npy file (it does not start with \\x93NUMPY)");
        const int major = static_cast<unsigned char>(preamble[6]);
        const int minor = static_cast<unsigned char>(preamble[7]);
        if (major < 1 || major > 3 || minor != 0)
            fail("unsupported .npy format version " + num(major) + "." + num(minor) +
                 " (1.0, 2.0 and 3.0 are supported)");
        unsigned char lengthBytes[4] = {0, 0, 0, 0};
        const std::int64_t lengthSize = major == 1 ? 2 : 4;
        if (m_device.read(reinterpret_cast<char*>(lengthBytes), lengthSize) != lengthSize)
            fail("truncated: the header length is missing");
        const std::int64_t length =
            std::int64_t(lengthBytes[0]) | std::int64_t(lengthBytes[1]) << 8 |
            std::int64_t(lengthBytes[2]) << 16 | std::int64_t(lengthBytes[3]) << 24;
        if (length > kMaxHeaderLength)
            fail("the header claims " + num(length) + " bytes, more than a .npy header holds");
        if (m_device.size() - m_device.pos() < length) fail("truncated: the header is cut short");
        std::string text(std::size_t(length), '\0');
        readExactly(text.data(), length);
        return parseHeader(text, major);
    }

    // The header is a Python dict literal ({'descr': '<f4', 'fortran_order': False, 'shape':
    // (2, 3), }) that NumPy 1.24 reads with ast.literal_eval: any literal syntax Python takes
    // (comments, either quote, escapes, adjacent strings, parentheses, 0x12 and 1_000, a Python 2
    // 'L' in versions 1.0 and 2.0), a repeated key taking the last value, exactly the three keys,
    // 'shape' a tuple of ints, 'fortran_order' a bool.
    struct PyMember;
    struct PyValue
    {
        enum class Kind { Int, Bool, None, Str, Tuple, List, Dict, Other };
        Kind kind = Kind::Other;
        std::int64_t integer = 0;
        bool overflow = false; ///< an Int past int64
        std::string text;      ///< Str
        std::vector<PyValue> items;
        std::vector<PyMember> members; ///< Dict, last value per key
    };
    struct PyMember
    {
        PyValue key;
        PyValue value;
    };

    class PyLiteral
    {
    public:
        PyLiteral(std::string_view text, bool python2Longs) : m_text(text), m_longs(python2Longs) {}

        PyValue parseWhole()
        {
            // literal_eval strips leading spaces and tabs; after that a line may only continue
            // within brackets, as in Python source.
            while (m_i < m_text.size() && (m_text[m_i] == ' ' || m_text[m_i] == '\t'))
                ++m_i;
            if (m_text.find('\0') != std::string_view::npos)
                fail("header garbage: the header holds a NUL byte");
            PyValue v = value();
            skip(false);
            if (m_i != m_text.size()) garbage("the end of the header");
            return v;
        }

    private:
        [[noreturn]] void garbage(const std::string& expected) const
        {
            fail("header garbage: expected " + expected + " at byte " + num(std::int64_t(m_i)) +
                 " of the header");
        }

        // Spaces, comments and backslash continuations; newlines only inside brackets.
        void skip(bool newlines)
        {
            while (m_i < m_text.size()) {
                const char c = m_text[m_i];
                if (c == ' ' || c == '\t' || c == '\f') {
                    ++m_i;
                } else if (c == '#') {
                    while (m_i < m_text.size() && m_text[m_i] != '\n' && m_text[m_i] != '\r')
                        ++m_i;
                } else if (c == '\\' && m_i + 1 < m_text.size() &&
                           (m_text[m_i + 1] == '\n' || m_text[m_i + 1] == '\r')) {
                    m_i += 2;
                    if (m_text[m_i - 1] == '\r' && m_i < m_text.size() && m_text[m_i] == '\n')
                        ++m_i;
                } else if ((c == '\n' || c == '\r') && (newlines || m_depth > 0)) {
                    ++m_i;
                } else if ((c == '\n' || c == '\r') && m_depth == 0) {
                    // Blank lines at the end of the expression end it.
                    std::size_t k = m_i;
                    while (k < m_text.size() && std::strchr(" \t\f\r\n", m_text[k]))
                        ++k;
                    m_i = k;
                    if (k < m_text.size() && m_text[k] != '#') return;
                } else {
                    return;
                }
            }
        }

        bool at(char c)
        {
            skip(false);
            return m_i < m_text.size() && m_text[m_i] == c;
        }

        void expect(char c)
        {
            if (!at(c)) garbage(std::string("'") + c + "'");
            ++m_i;
        }

        static bool identChar(char c)
        {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_' || static_cast<unsigned char>(c) >= 0x80;
        }

        PyValue value()
        {
            skip(false);
            if (++m_nesting > 64) fail("header garbage: nested too deeply");
            PyValue v = atom();
            --m_nesting;
            return v;
        }

        PyValue atom()
        {
            if (m_i >= m_text.size()) garbage("a value");
            const char c = m_text[m_i];
            if (c == '{') return dict();
            if (c == '(') return sequence(')', PyValue::Kind::Tuple);
            if (c == '[') return sequence(']', PyValue::Kind::List);
            if (c == '-' || c == '+') {
                ++m_i;
                skip(false);
                if (m_i >= m_text.size() ||
                    !((m_text[m_i] >= '0' && m_text[m_i] <= '9') || m_text[m_i] == '.'))
                    garbage("a number after the sign");
                PyValue n = number();
                if (c == '-' && n.kind == PyValue::Kind::Int) n.integer = -n.integer;
                return n;
            }
            if ((c >= '0' && c <= '9') || c == '.') return number();
            if (c == '\'' || c == '"') return strings();
            if (identChar(c)) {
                std::size_t end = m_i;
                while (end < m_text.size() && identChar(m_text[end]))
                    ++end;
                const std::string_view word = m_text.substr(m_i, end - m_i);
                if (end < m_text.size() && (m_text[end] == '\'' || m_text[end] == '"') &&
                    word.size() <= 2)
                    return strings();
                m_i = end;
                PyValue v;
                if (word == "True" || word == "False") {
                    v.kind = PyValue::Kind::Bool;
                    v.integer = word == "True";
                } else if (word == "None") {
                    v.kind = PyValue::Kind::None;
                } else {
                    fail("header garbage: '" + std::string(word) + "' is not a Python literal");
                }
                return v;
            }
            garbage("a value");
        }

        PyValue dict()
        {
            ++m_i;
            ++m_depth;
            PyValue d;
            d.kind = PyValue::Kind::Dict;
            while (!at('}')) {
                PyValue key = value();
                expect(':');
                PyValue item = value();
                // Python keeps the first key's place and the last value.
                auto same = std::find_if(d.members.begin(), d.members.end(),
                                         [&](const auto& m) { return equal(m.key, key); });
                if (same != d.members.end())
                    same->value = std::move(item);
                else
                    d.members.push_back(PyMember{std::move(key), std::move(item)});
                if (at(',')) {
                    ++m_i;
                    continue;
                }
                if (!at('}')) garbage("',' or '}'");
            }
            ++m_i;
            --m_depth;
            return d;
        }

        PyValue sequence(char close, PyValue::Kind kind)
        {
            ++m_i;
            ++m_depth;
            PyValue s;
            s.kind = kind;
            bool comma = false;
            while (!at(close)) {
                s.items.push_back(value());
                if (at(',')) {
                    ++m_i;
                    comma = true;
                    continue;
                }
                if (!at(close)) garbage(std::string("',' or '") + close + "'");
            }
            ++m_i;
            --m_depth;
            // (x) is x itself, not a tuple; (x,) and () are tuples.
            if (kind == PyValue::Kind::Tuple && s.items.size() == 1 && !comma)
                return std::move(s.items.front());
            return s;
        }

        PyValue number()
        {
            std::size_t end = m_i;
            while (end < m_text.size() && (identChar(m_text[end]) || m_text[end] == '.' ||
                                           ((m_text[end] == '+' || m_text[end] == '-') &&
                                            (m_text[end - 1] == 'e' || m_text[end - 1] == 'E'))))
                ++end;
            std::string_view token = m_text.substr(m_i, end - m_i);
            m_i = end;
            PyValue v;
            if (m_longs && token.ends_with('L')) token.remove_suffix(1);
            int base = 10;
            std::string_view digits = token;
            if (token.size() > 1 && token[0] == '0' && std::strchr("xXoObB", token[1])) {
                base = token[1] == 'x' || token[1] == 'X'   ? 16
                       : token[1] == 'o' || token[1] == 'O' ? 8
                                                            : 2;
                digits.remove_prefix(2);
                if (digits.starts_with('_')) digits.remove_prefix(1);
            }
            // Digits with single underscores between them; a decimal has no leading zeros.
            bool ok = !digits.empty() && digits.front() != '_' && digits.back() != '_' &&
                      digits.find("__") == std::string_view::npos;
            std::int64_t n = 0;
            for (char c : digits) {
                if (c == '_') continue;
                int d = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : 99;
                if (d >= base) {
                    ok = false;
                    break;
                }
                if (!v.overflow && (n > (std::numeric_limits<std::int64_t>::max() - d) / base))
                    v.overflow = true;
                if (!v.overflow) n = n * base + d;
            }
            if (ok && base == 10 && digits.size() > 1 && digits[0] == '0' &&
                digits.find_first_not_of("0_") != std::string_view::npos)
                ok = false; // 012 is a syntax error in Python 3
            if (!ok) {
                // A float, complex or malformed number: no header value may be one.
                if (token.find_first_of(".eEjJ") != std::string_view::npos && base == 10)
                    return v; // Kind::Other
                fail("header garbage: '" + std::string(token) + "' is not a number");
            }
            v.kind = PyValue::Kind::Int;
            v.integer = n;
            return v;
        }

        // One string literal or several adjacent ones ('de' "scr"), joined as Python does.
        PyValue strings()
        {
            PyValue v;
            v.kind = PyValue::Kind::Str;
            bool bytes = false;
            bool any = false;
            for (;;) {
                skip(false);
                std::size_t k = m_i;
                bool raw = false, b = false;
                while (k < m_text.size() && std::strchr("rRbBuU", m_text[k]) && k - m_i < 2) {
                    raw = raw || m_text[k] == 'r' || m_text[k] == 'R';
                    b = b || m_text[k] == 'b' || m_text[k] == 'B';
                    ++k;
                }
                if (k >= m_text.size() || (m_text[k] != '\'' && m_text[k] != '"')) {
                    if (!any) garbage("a quoted string");
                    break;
                }
                const std::string_view prefix = m_text.substr(m_i, k - m_i);
                if (prefix.size() == 2 && !raw) garbage("a string prefix Python knows");
                if (any && b != bytes) garbage("strings of one kind (bytes and str do not join)");
                bytes = b;
                any = true;
                m_i = k;
                v.text += stringBody(raw);
            }
            if (bytes) v.kind = PyValue::Kind::Other; // bytes are not the str keys NumPy wants
            return v;
        }

        std::string stringBody(bool raw)
        {
            const char quote = m_text[m_i];
            const bool triple = m_text.substr(m_i, 3) == std::string(3, quote);
            m_i += triple ? 3 : 1;
            std::string out;
            for (;;) {
                if (m_i >= m_text.size()) garbage("the end of a string");
                const char c = m_text[m_i];
                if (c == quote && (!triple || m_text.substr(m_i, 3) == std::string(3, quote))) {
                    m_i += triple ? 3 : 1;
                    return out;
                }
                if (!triple && (c == '\n' || c == '\r')) garbage("the end of a string");
                if (c != '\\') {
                    out += c;
                    ++m_i;
                    continue;
                }
                if (m_i + 1 >= m_text.size()) garbage("the end of a string");
                const char e = m_text[m_i + 1];
                if (raw) {
                    out += c;
                    out += e;
                    m_i += 2;
                    continue;
                }
                m_i += 2;
                switch (e) {
                case '\n': break;
                case '\\': out += '\\'; break;
                case '\'': out += '\''; break;
                case '"': out += '"'; break;
                case 'a': out += '\a'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'v': out += '\v'; break;
                case 'x': out += codePoint(2); break;
                case 'u': out += codePoint(4); break;
                case 'U': out += codePoint(8); break;
                default:
                    if (e >= '0' && e <= '7') {
                        char32_t cp = char32_t(e - '0');
                        for (int k = 0; k < 2 && m_i < m_text.size() && m_text[m_i] >= '0' &&
                                        m_text[m_i] <= '7';
                             ++k)
                            cp = cp * 8 + char32_t(m_text[m_i++] - '0');
                        std::string u;
                        appendUtf8(u, cp);
                        out += u;
                    } else {
                        out += '\\'; // Python keeps an unknown escape as it is
                        out += e;
                    }
                }
            }
        }

        std::string codePoint(int digits)
        {
            char32_t cp = 0;
            for (int k = 0; k < digits; ++k, ++m_i) {
                const char c = m_i < m_text.size() ? m_text[m_i] : '\0';
                const int d = c >= '0' && c <= '9'   ? c - '0'
                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                     : -1;
                if (d < 0) garbage("a hexadecimal escape");
                cp = cp * 16 + char32_t(d);
            }
            if (cp > 0x10FFFF) garbage("a Unicode escape");
            std::string u;
            appendUtf8(u, cp);
            return u;
        }

        static bool equal(const PyValue& a, const PyValue& b)
        {
            // Keys compare as Python does: True == 1, and the same str.
            const bool aNum = a.kind == PyValue::Kind::Int || a.kind == PyValue::Kind::Bool;
            const bool bNum = b.kind == PyValue::Kind::Int || b.kind == PyValue::Kind::Bool;
            if (aNum && bNum) return a.integer == b.integer && !a.overflow && !b.overflow;
            if (a.kind != b.kind) return false;
            if (a.kind == PyValue::Kind::Str) return a.text == b.text;
            if (a.kind == PyValue::Kind::None) return true;
            if (a.kind == PyValue::Kind::Tuple) {
                if (a.items.size() != b.items.size()) return false;
                for (std::size_t k = 0; k < a.items.size(); ++k)
                    if (!equal(a.items[k], b.items[k])) return false;
                return true;
            }
            return false;
        }

        std::string_view m_text;
        bool m_longs;
        std::size_t m_i = 0;
        int m_depth = 0;   ///< open brackets: newlines inside them are spaces
        int m_nesting = 0; ///< values inside values
    };

    Header parseHeader(std::string_view text, int major) const
    {
        if (major == 3 && findInvalidUtf8(text))
            fail("header garbage: a version 3.0 header must be UTF-8 text");
        const PyValue dict = PyLiteral(text, major < 3).parseWhole();
        if (dict.kind != PyValue::Kind::Dict) fail("the header is not a dictionary");
        const PyValue *descr = nullptr, *order = nullptr, *shape = nullptr;
        for (const auto& [key, value] : dict.members) {
            if (key.kind == PyValue::Kind::Str && key.text == "descr")
                descr = &value;
            else if (key.kind == PyValue::Kind::Str && key.text == "fortran_order")
                order = &value;
            else if (key.kind == PyValue::Kind::Str && key.text == "shape")
                shape = &value;
            else
                fail(key.kind == PyValue::Kind::Str
                         ? "unexpected key '" + key.text + "' in the header"
                         : std::string("a header key is not a string"));
        }
        if (!descr || !order || !shape)
            fail("the header lacks " + std::string(!descr   ? "'descr'"
                                                   : !order ? "'fortran_order'"
                                                            : "'shape'"));
        Header h;
        if (order->kind != PyValue::Kind::Bool) fail("'fortran_order' is not True or False");
        h.fortranOrder = order->integer != 0;
        if (shape->kind != PyValue::Kind::Tuple) fail("'shape' is not a tuple");
        if (shape->items.size() > std::size_t(kMaxRank))
            fail("the array has rank " + num(std::int64_t(shape->items.size())) +
                 "; tensors have rank 0 to " + num(kMaxRank));
        for (const PyValue& size : shape->items) {
            // Python takes True for an int, but NumPy 1.24 then fails to make the array.
            if (size.kind != PyValue::Kind::Int)
                fail("'shape' holds something other than integers");
            if (size.overflow) fail("a dimension in the header is too large");
            if (size.integer < 0) fail("the shape has a negative dimension");
            h.shape.push_back(size.integer);
        }
        if (descr->kind == PyValue::Kind::List)
            fail("structured (record) dtypes are not supported");
        if (descr->kind != PyValue::Kind::Str) fail("'descr' is not a dtype string");
        h.descr = parseDescr(descr->text);
        return h;
    }

    Descr parseDescr(const std::string& text) const
    {
        std::string_view s = text;
        char order = '|';
        if (!s.empty() && (s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '='))
            order = s[0], s.remove_prefix(1);
        const bool bigEndian =
            order == '>' || (order == '=' && std::endian::native == std::endian::big);
        Descr d;
        d.swap = bigEndian != (std::endian::native == std::endian::big);
        auto plain = [&](DType t) {
            d.dtype = t;
            d.itemSize = d.swapSize = dtypeSize(t);
            d.swap = d.swap && d.itemSize > 1;
            return d;
        };
        if (s == "b1" || s == "?") return plain(DType::Bool);
        if (const std::optional<DType> t = dtypeFromNpyDescr(s)) {
            plain(*t);
            // A complex number is two floats, each in the file's byte order.
            if (isComplex(*t)) d.swapSize = d.itemSize / 2;
            return d;
        }
        if (!s.empty() && (s[0] == 'U' || s[0] == 'S' || s[0] == 'a') &&
            s.find_first_not_of("0123456789", 1) == std::string_view::npos && s.size() < 12) {
            const std::int64_t chars = s.size() > 1 ? std::stoll(std::string(s.substr(1))) : 0;
            d.kind = s[0] == 'U' ? Descr::Kind::Unicode : Descr::Kind::Bytes;
            d.dtype = DType::String;
            d.itemSize = s[0] == 'U' ? 4 * chars : chars;
            // NumPy's item size is a C int: a longer one is no file NumPy wrote or can read.
            if (d.itemSize > kMaxNumpyItemBytes)
                fail("the dtype '" + text + "' has elements of " + num(d.itemSize) +
                     " bytes; NumPy's hold at most " + num(kMaxNumpyItemBytes));
            return d;
        }
        std::string why = "is not supported";
        if (!s.empty() && s[0] == 'c')
            why = "(complex of this size) is not supported";
        else if (s == "O" || s.starts_with("O"))
            why = "(Python objects) is not supported";
        else if (!s.empty() && s[0] == 'V')
            why = "(structured or void; only V2, bfloat16 as ml_dtypes saves it, is read) is not "
                  "supported";
        else if (!s.empty() && (s[0] == 'M' || s[0] == 'm'))
            why = "(datetime) is not supported";
        else if (s == "f16" || s == "f12" || s == "g")
            why = "(long double) is not supported";
        fail("the dtype '" + text + "' " + why +
             " (supported: b1, i1, u1, i2, u2, i4, u4, i8, u8, f2, f4, f8, c8, c16, V2 or "
             "bfloat16, U and S strings)");
    }

    template <class U> static void swapAll(void* data, std::int64_t n)
    {
        auto* p = static_cast<unsigned char*>(data);
        for (std::int64_t i = 0; i < n; ++i, p += sizeof(U)) {
            U v;
            std::memcpy(&v, p, sizeof v);
            if constexpr (sizeof(U) == 2)
                v = __builtin_bswap16(v);
            else if constexpr (sizeof(U) == 4)
                v = __builtin_bswap32(v);
            else
                v = __builtin_bswap64(v);
            std::memcpy(p, &v, sizeof v);
        }
    }

    void readPlain(Tensor& t, const Descr& d, std::int64_t bytes)
    {
        readExactly(static_cast<char*>(t.raw()), bytes);
        if (d.swap) {
            const std::int64_t units = t.size() * (d.itemSize / d.swapSize);
            if (d.swapSize == 2)
                swapAll<std::uint16_t>(t.raw(), units);
            else if (d.swapSize == 4)
                swapAll<std::uint32_t>(t.raw(), units);
            else
                swapAll<std::uint64_t>(t.raw(), units);
        }
        if (d.dtype == DType::Bool) {
            // NumPy reads any non-zero byte as True; a C++ bool must hold exactly 0 or 1.
            auto* p = static_cast<unsigned char*>(t.raw());
            for (std::int64_t i = 0; i < t.size(); ++i)
                p[i] = p[i] != 0;
        }
    }

    void readStrings(Tensor& t, const Descr& d, std::int64_t bytes)
    {
        std::string buffer(std::size_t(bytes), '\0');
        readExactly(buffer.data(), bytes);
        std::string* out = t.data<std::string>();
        for (std::int64_t i = 0; i < t.size(); ++i) {
            std::string_view item(buffer.data() + i * d.itemSize, std::size_t(d.itemSize));
            if (d.kind == Descr::Kind::Bytes) {
                // NumPy strips trailing NULs from bytes items.
                while (!item.empty() && item.back() == '\0')
                    item.remove_suffix(1);
                out[i] = std::string(item); // any bytes, as NumPy keeps them
                continue;
            }
            const std::int64_t chars = d.itemSize / 4;
            std::int64_t used = chars;
            auto codePoint = [&](std::int64_t k) {
                unsigned char b[4];
                std::memcpy(b, item.data() + 4 * k, 4);
                return d.swap != (std::endian::native == std::endian::big)
                           ? char32_t(b[0]) << 24 | char32_t(b[1]) << 16 | char32_t(b[2]) << 8 |
                                 b[3]
                           : char32_t(b[3]) << 24 | char32_t(b[2]) << 16 | char32_t(b[1]) << 8 |
                                 b[0];
            };
            while (used > 0 && codePoint(used - 1) == 0)
                --used;
            std::string s;
            for (std::int64_t k = 0; k < used; ++k) {
                const char32_t cp = codePoint(k);
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    char hex[16];
                    const auto end =
                        std::to_chars(hex, hex + sizeof hex, std::uint32_t(cp), 16).ptr;
                    fail("string element " + num(i) + " holds code point 0x" +
                         std::string(hex, end) + ", which is not a Unicode character");
                }
                appendUtf8(s, cp);
            }
            out[i] = std::move(s);
        }
    }

    // `stored` holds Fortran-order data as the C-order array of the reversed shape.
    static Tensor fromFortran(const Tensor& stored, const Shape& shape, const Limits& limits)
    {
        Tensor t = Tensor::empty(stored.dtype(), shape, limits);
        // Nothing to move.
        if (t.size() == 0) return t;
        const int rank = int(shape.size());
        std::vector<std::int64_t> fortranStrides(std::size_t(rank), 1);
        for (int k = 1; k < rank; ++k)
            fortranStrides[std::size_t(k)] =
                fortranStrides[std::size_t(k - 1)] * shape[std::size_t(k - 1)];
        visitDType(t.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* src = stored.data<T>();
            T* dst = t.data<T>();
            std::vector<std::int64_t> coord(std::size_t(rank), 0);
            std::int64_t offset = 0;
            for (std::int64_t i = 0; i < t.size(); ++i) {
                dst[i] = src[offset];
                for (int k = rank - 1; k >= 0; --k) {
                    const auto K = std::size_t(k);
                    if (++coord[K] < shape[K]) {
                        offset += fortranStrides[K];
                        break;
                    }
                    offset -= fortranStrides[K] * (shape[K] - 1);
                    coord[K] = 0;
                }
            }
        });
        return t;
    }

    QIODevice& m_device;
    std::string m_name;
    std::string m_path;
    int m_mapFd = -1;
};

using Sink = std::function<void(const char*, std::size_t)>;

void writeNpy(const Tensor& t, const Sink& sink)
{
    std::string descr;
    // Code points ('U') or bytes ('S') per string element.
    std::int64_t chars = 1;
    std::vector<std::u32string> texts;
    const bool bytes = t.holdsBytes();
    if (t.dtype() == DType::String) {
        chars = numpyStringLength(t);
        descr = numpyStringDescr(t);
        if (!bytes) {
            texts.reserve(std::size_t(t.size()));
            for (std::int64_t i = 0; i < t.size(); ++i)
                texts.push_back(decodeUtf8(t.data<std::string>()[i]));
        }
    } else {
        descr = npyDescr(t.dtype());
    }
    const std::string shape = shapeTuple(t.shape());
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Pad with spaces and end with a newline so that the data starts on a 64-byte boundary.
    const bool version2 = header.size() + 1 + 10 + 64 > 65535;
    const std::size_t preamble = version2 ? 12 : 10;
    header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string head(kMagic, kMagicLength);
    head += char(version2 ? 2 : 1);
    head += '\0';
    for (std::size_t k = 0; k < preamble - 8; ++k)
        head += char((header.size() >> (8 * k)) & 0xFF);
    head += header;
    sink(head.data(), head.size());

    if (t.dtype() != DType::String) {
        // The unit whose bytes are reversed on a big-endian machine: a complex number's part.
        const std::size_t item = std::size_t(dtypeSize(t.dtype())) / (isComplex(t.dtype()) ? 2 : 1);
        const std::size_t total = std::size_t(t.size()) * std::size_t(dtypeSize(t.dtype()));
        const auto* data = static_cast<const char*>(t.raw());
        if constexpr (std::endian::native == std::endian::little) {
            if (total > 0) sink(data, total);
        } else {
            std::string chunk;
            for (std::size_t k = 0; k < total; k += item) {
                chunk.append(data + k, item);
                std::reverse(chunk.end() - std::ptrdiff_t(item), chunk.end());
                if (chunk.size() >= (1 << 20) || k + item == total) {
                    sink(chunk.data(), chunk.size());
                    chunk.clear();
                }
            }
        }
        return;
    }
    std::string chunk;
    if (bytes) {
        // The bytes, padded with NULs (which NumPy strips on reading, as readStrings does).
        for (std::int64_t i = 0; i < t.size(); ++i) {
            const std::string& s = t.data<std::string>()[i];
            chunk += s;
            chunk.append(std::size_t(chars) - s.size(), '\0');
            if (chunk.size() >= (1 << 20)) {
                sink(chunk.data(), chunk.size());
                chunk.clear();
            }
        }
    }
    for (const std::u32string& s : texts) {
        for (std::int64_t k = 0; k < chars; ++k) {
            const char32_t cp = k < std::int64_t(s.size()) ? s[std::size_t(k)] : 0;
            for (int b = 0; b < 4; ++b)
                chunk += char((cp >> (8 * b)) & 0xFF);
        }
        if (chunk.size() >= (1 << 20)) {
            sink(chunk.data(), chunk.size());
            chunk.clear();
        }
    }
    if (!chunk.empty()) sink(chunk.data(), chunk.size());
}

} // namespace

Tensor readNpyFile(const std::string& path, const Limits& limits)
{
    // The app's one rule for reading a file (read_file.h): regular files only. The size needs no
    // cap of its own: the header is bounded, and only the data it declares, within `limits`, is
    // read.
    const int fd = openRegularFile(path, std::numeric_limits<std::int64_t>::max());
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        badRequest("cannot read '" + path + "': " + file.errorString().toStdString());
    }
    return NpyReader(file, "'" + path + "'", g_mapping.load() ? fd : -1, path).read(limits);
}

void setNpyMapping(bool enabled)
{
    g_mapping.store(enabled);
}

bool npyMapping()
{
    return g_mapping.load();
}

Tensor readNpyBytes(std::string_view bytes, const Limits& limits)
{
    QByteArray data = QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size()));
    QBuffer buffer(&data);
    buffer.open(QIODevice::ReadOnly);
    return NpyReader(buffer, ".npy data").read(limits);
}

void writeNpyFile(const std::string& path, const Tensor& tensor)
{
    // The tensor may be a mapped file's pages (an input, or a result that shares them): if the
    // file changed or was truncated while they were written out, the new file holds neither
    // version, and is not put in place. A truncated page makes write() fail (EFAULT) rather than
    // raise SIGBUS: the file's problem, not "Bad address", is the error. Its bytes are handed
    // over a chunk at a time, and a mapped file's pages of each chunk leave the process once
    // written (they stay in the page cache): the 8 GB x[:100000] of a 16 GB file was saved with
    // 7.8 GB resident, every page of it mapped into the process by write().
    constexpr std::size_t kChunk = std::size_t(64) << 20;
    const std::string why =
        writeFileAtomically(QFile::decodeName(path.c_str()), [&](const auto& sink) {
            writeNpy(tensor, [&](const char* data, std::size_t size) {
                for (std::size_t at = 0; at < size; at += kChunk) {
                    const std::size_t n = std::min(kChunk, size - at);
                    sink(data + at, n);
                    unmapResidentPages(data + at, std::int64_t(n));
                }
            });
            checkMappedInputs({tensor});
        });
    checkMappedInputs({tensor});
    if (!why.empty()) badRequest("cannot write '" + path + "': " + why);
}

std::string encodeNpy(const Tensor& tensor)
{
    std::string out;
    writeNpy(tensor, [&](const char* data, std::size_t size) { out.append(data, size); });
    return out;
}

} // namespace ss
