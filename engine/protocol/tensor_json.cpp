// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/tensor_json.h"

#include "core/error.h"
#include "core/executor.h"
#include "core/numpy_strings.h"
#include "core/strings.h"
#include "protocol/npy.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ss {

namespace {

// A JSON value as it appears in a message, cut short if long.
std::string snippet(const Json& v)
{
    std::string s;
    JsonWriter(s).value(v);
    if (s.size() > 40) {
        std::size_t cut = 37;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
            --cut; // not inside a UTF-8 sequence
        s = s.substr(0, cut) + "...";
    }
    return s;
}

} // namespace

DType readDType(const Json& v)
{
    if (!v.isString()) badRequest("dtype must be a string, got " + std::string(v.typeName()));
    const auto t = dtypeFromName(v.toString());
    if (!t) badRequest("unknown dtype " + snippet(v) + " (the dtypes are " + dtypeNameList() + ")");
    return *t;
}

Shape readShape(const Json& v)
{
    if (!v.isArray())
        badRequest("shape must be a list of non-negative integers, got " +
                   std::string(v.typeName()));
    const auto& items = v.toArray();
    if (items.size() > std::size_t(kMaxRank))
        badRequest("shape " + snippet(v) + " has rank " + num(std::int64_t(items.size())) +
                   "; tensors have rank 0 to " + num(kMaxRank));
    Shape shape;
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (!items[k].isInt64())
            badRequest("shape[" + num(std::int64_t(k)) + "] must be a non-negative integer, got " +
                       snippet(items[k]));
        if (items[k].toInt64() < 0)
            badRequest("shape[" + num(std::int64_t(k)) + "] is " + num(items[k].toInt64()) +
                       "; a dimension cannot be negative");
        shape.push_back(items[k].toInt64());
    }
    return shape;
}

namespace {

// The largest finite value of each real float type, as messages name it.
template <class T> const char* largestText()
{
    if constexpr (std::is_same_v<T, Float16>)
        return "65504";
    else if constexpr (std::is_same_v<T, BFloat16>)
        return "3.3895314e+38";
    else
        return "3.4028235e+38";
}

// A real float (or one part of a complex number) of type T: a number, rounded to the nearest
// value of T, or "nan", "inf", "-inf". A finite number beyond T's range is refused rather than
// made infinite. `typeName` names the tensor's dtype for messages.
template <class T, class Refuse>
T readReal(const Json& v, const std::string& typeName, const Refuse& refuse)
{
    if (v.isString()) {
        const std::string& s = v.toString();
        if (s == "nan" || s == "inf" || s == "-inf")
            return fromReal<T>(s == "nan"   ? std::numeric_limits<double>::quiet_NaN()
                               : s == "inf" ? std::numeric_limits<double>::infinity()
                                            : -std::numeric_limits<double>::infinity());
        refuse("the " + typeName + " tensor takes numbers or the strings \"nan\", \"inf\", " +
               "\"-inf\", got " + snippet(v));
    }
    if (!v.isNumber()) refuse("the " + typeName + " tensor takes numbers, got " + snippet(v));
    if constexpr (std::is_same_v<T, double>) {
        return v.number().value;
    } else {
        // float32 from the text itself (one rounding); the 16-bit floats from the double.
        const bool overflows = std::is_same_v<T, float>
                                   ? v.number().overflows32
                                   : std::isinf(realValue(fromReal<T>(v.number().value)));
        if (overflows)
            refuse(snippet(v) + " is out of range for " + typeName + " (largest " +
                   largestText<T>() + "); write \"inf\" for infinity, or use " +
                   (typeName == "complex64" ? "complex128"
                    : typeName == "float32" ? "float64"
                                            : "float32"));
        if constexpr (std::is_same_v<T, float>)
            return v.number().value32;
        else
            return fromReal<T>(v.number().value);
    }
}

// One element, converted to T with the dtype's own checks. `where` names it for messages.
template <class T, class Where> T readElement(const Json& v, DType dtype, const Where& where)
{
    const auto name = [dtype] { return std::string(dtypeName(dtype)); }; // only built on errors
    auto refuse = [&](const std::string& what) { badRequest(where() + ": " + what); };
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.isBool()) refuse("the bool tensor takes true or false, got " + snippet(v));
        return v.toBool();
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.isString()) refuse("the string tensor takes strings, got " + snippet(v));
        return v.toString();
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
        // Beyond int64: read as the unsigned integer it is.
        if (!v.isNumber()) refuse("the uint64 tensor takes integers, got " + snippet(v));
        const JsonNumber& n = v.number();
        if (!n.isInteger) refuse(snippet(v) + " is not an integer (the tensor is uint64)");
        if (!n.fitsUInt64)
            refuse(snippet(v) + " is out of range for uint64 [0, 18446744073709551615]");
        return n.uinteger;
    } else if constexpr (std::is_integral_v<T>) {
        if (!v.isNumber()) refuse("the " + name() + " tensor takes integers, got " + snippet(v));
        const JsonNumber& n = v.number();
        if (!n.isInteger) refuse(snippet(v) + " is not an integer (the tensor is " + name() + ")");
        if (!n.fitsInt64 || n.integer < integerMin(dtype) || n.integer > integerMax(dtype))
            refuse(snippet(v) + " is out of range for " + name() + " [" + num(integerMin(dtype)) +
                   ", " + num(integerMax(dtype)) + "]");
        return static_cast<T>(n.integer);
    } else if constexpr (kIsComplex<T>) {
        // [real, imaginary], each part a number or "nan", "inf", "-inf".
        if (!v.isArray() || v.toArray().size() != 2)
            refuse("the " + name() + " tensor takes [real, imaginary] pairs, got " + snippet(v));
        using Part = typename T::value_type;
        return T(readReal<Part>(v.toArray()[0], name(), refuse),
                 readReal<Part>(v.toArray()[1], name(), refuse));
    } else {
        return readReal<T>(v, name(), refuse);
    }
}

// Fills `t` from leaf(i) for every element i.
template <class Leaf, class Where>
void readElements(Tensor& t, const Leaf& leaf, const Where& where)
{
    visitDType(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* out = t.data<T>();
        for (std::int64_t i = 0; i < t.size(); ++i)
            out[i] = readElement<T>(leaf(i), t.dtype(), [&] { return where(i); });
    });
}

std::string indexPath(const std::string& name, const std::vector<std::int64_t>& index)
{
    std::string s = name;
    for (std::int64_t i : index)
        s += "[" + num(i) + "]";
    return s;
}

// Collects the leaves of a nested list, checking that it is rectangular with `shape`.
void flattenValue(const Json& v, const Shape& shape, std::vector<std::int64_t>& index,
                  std::vector<const Json*>& leaves, bool pairLeaves)
{
    const std::size_t depth = index.size();
    if (depth == shape.size()) {
        if (v.isArray() && !pairLeaves)
            badRequest("ragged value: " + indexPath("value", index) +
                       " is a list where a single element was expected");
        leaves.push_back(&v);
        return;
    }
    if (!v.isArray())
        badRequest("ragged value: " + indexPath("value", index) + " is " +
                   std::string(v.typeName()) + " where a list of " + num(shape[depth]) +
                   " was expected");
    const auto& items = v.toArray();
    if (std::int64_t(items.size()) != shape[depth])
        badRequest("ragged value: " + indexPath("value", index) + " has " +
                   num(std::int64_t(items.size())) + " elements where " + num(shape[depth]) +
                   " were expected");
    index.push_back(0);
    for (const Json& item : items) {
        flattenValue(item, shape, index, leaves, pairLeaves);
        ++index.back();
    }
    index.pop_back();
}

// TensorFlow's inference for a Python literal.
DType inferDType(const std::vector<const Json*>& leaves)
{
    bool anyString = false, anyBool = false, anyNumber = false, anyFloat = false;
    bool allInt32 = true;
    for (const Json* leaf : leaves) {
        anyString = anyString || leaf->isString();
        anyBool = anyBool || leaf->isBool();
        if (leaf->isNumber()) {
            const JsonNumber& n = leaf->number();
            anyNumber = true;
            anyFloat = anyFloat || !n.isInteger;
            allInt32 = allInt32 && n.fitsInt64 &&
                       n.integer >= std::numeric_limits<std::int32_t>::min() &&
                       n.integer <= std::numeric_limits<std::int32_t>::max();
        }
    }
    if (anyString && (anyNumber || anyBool))
        badRequest("the value mixes strings with numbers or booleans; give a dtype (a float dtype "
                   "reads \"nan\", \"inf\" and \"-inf\" as numbers)");
    if (anyBool && anyNumber) badRequest("the value mixes booleans and numbers; give a dtype");
    if (anyString) return DType::String;
    if (anyBool) return DType::Bool;
    if (anyFloat || !anyNumber) return DType::Float32;
    return allInt32 ? DType::Int32 : DType::Int64;
}

std::uint64_t readSeed(const Json& v)
{
    if (!v.isInt64() || v.toInt64() < 0)
        badRequest("seed must be a non-negative integer, got " + snippet(v));
    return std::uint64_t(v.toInt64());
}

Fill readFill(const Json& v)
{
    const std::string text = v.isString() ? v.toString() : "";
    if (text == "arange") return Fill::Arange;
    if (text == "zeros") return Fill::Zeros;
    if (text == "ones") return Fill::Ones;
    if (text == "random") return Fill::Random;
    badRequest("fill must be \"arange\", \"zeros\", \"ones\" or \"random\", got " + snippet(v));
}

} // namespace

Tensor tensorFromValue(const Json& value, std::optional<DType> dtype, const Limits& limits)
{
    // A complex element is itself a list, [real, imaginary]: the innermost list of non-lists.
    const bool pairLeaves = dtype && isComplex(*dtype);
    Shape shape;
    for (const Json* level = &value; level->isArray(); level = &level->toArray().front()) {
        if (pairLeaves && !level->toArray().empty() && !level->toArray().front().isArray()) break;
        if (shape.size() == std::size_t(kMaxRank))
            badRequest("the value nests lists more than " + num(kMaxRank) +
                       " deep; tensors have rank 0 to " + num(kMaxRank));
        shape.push_back(std::int64_t(level->toArray().size()));
        if (level->toArray().empty()) break;
    }
    limits.check(shape, dtype.value_or(DType::Float32), "the value");
    std::vector<const Json*> leaves;
    std::vector<std::int64_t> index;
    flattenValue(value, shape, index, leaves, pairLeaves);
    Tensor t = Tensor::empty(dtype ? *dtype : inferDType(leaves), shape, limits);
    readElements(
        t, [&](std::int64_t i) -> const Json& { return *leaves[std::size_t(i)]; },
        [&](std::int64_t i) { return indexPath("value", unravelIndex(i, shape)); });
    return t;
}

Tensor parseTensorLiteral(std::string_view text, std::optional<DType> dtype, const Limits& limits)
{
    return tensorFromValue(parseJson(text), dtype, limits);
}

namespace {

constexpr std::string_view kLatin1 = "latin-1";

// A string tensor's "bytes": true (Tensor::holdsBytes), or "latin-1" (bytes written as the code
// points U+0000..U+00FF, for bytes that are not UTF-8); false or absent is text.
void readBytesKind(const Json* bytes, Tensor& tensor)
{
    if (!bytes) return;
    const bool latin1 = bytes->isString() && bytes->toString() == kLatin1;
    if (!bytes->isBool() && !latin1)
        badRequest("bytes must be true, false or \"latin-1\", got " + snippet(*bytes));
    if (tensor.dtype() != DType::String)
        badRequest("bytes is for string tensors, not " + std::string(dtypeName(tensor.dtype())));
    tensor.setHoldsBytes(latin1 || bytes->toBool());
    if (!latin1) return;
    for (std::int64_t i = 0; i < tensor.size(); ++i) {
        std::string& s = tensor.data<std::string>()[i];
        std::string raw;
        for (const char32_t cp : decodeUtf8(s)) {
            if (cp > 0xFF)
                badRequest("bytes \"latin-1\" holds code points up to U+00FF; string " + num(i) +
                           " holds one past it");
            raw += char(cp);
        }
        s = std::move(raw);
    }
}

// A string tensor's "length": NumPy's length of its elements (Tensor::itemLength), a count of
// bytes or code points that NumPy's item size (a C int of bytes) can hold. Read after "bytes",
// which says which it counts.
void readItemLength(const Json* length, Tensor& tensor)
{
    if (!length) return;
    if (tensor.dtype() != DType::String)
        badRequest("length is for string tensors, not " + std::string(dtypeName(tensor.dtype())));
    const std::int64_t most = tensor.holdsBytes() ? kMaxNumpyItemBytes : kMaxNumpyItemBytes / 4;
    if (!length->isInt64() || length->toInt64() < 0 || length->toInt64() > most)
        badRequest("length must be an integer from 0 to " + num(most) + " (NumPy's longest " +
                   (tensor.holdsBytes() ? "bytes" : "text") + " element), got " + snippet(*length));
    tensor.setItemLength(length->toInt64());
}

// Bytes that are not all UTF-8 cannot be JSON strings as they are: each byte becomes the code
// point of its value (readBytesKind reads them back).
std::vector<std::string> latin1Strings(const Tensor& tensor)
{
    std::vector<std::string> out(std::size_t(tensor.size()));
    for (std::int64_t i = 0; i < tensor.size(); ++i)
        for (const unsigned char b : tensor.data<std::string>()[i])
            appendUtf8(out[std::size_t(i)], b);
    return out;
}

bool holdsNonUtf8(const Tensor& tensor)
{
    if (!tensor.holdsBytes()) return false;
    const std::string* data = tensor.data<std::string>();
    return std::any_of(data, data + tensor.size(),
                       [](const std::string& s) { return bool(findInvalidUtf8(s)); });
}

} // namespace

TensorSpec tensorSpecFromJson(const Json& json, const Limits& limits)
{
    if (!json.isObject())
        badRequest("a tensor must be an object with dtype, shape and one of data, value, fill or "
                   "npy; got " +
                   std::string(json.typeName()));
    const Json *dtypeField = nullptr, *shapeField = nullptr, *seed = nullptr, *bytes = nullptr,
               *length = nullptr;
    const Json* content = nullptr;
    std::string contentName;
    for (const auto& [name, v] : json.toObject()) {
        if (name == "dtype") {
            dtypeField = &v;
        } else if (name == "shape") {
            shapeField = &v;
        } else if (name == "seed") {
            seed = &v;
        } else if (name == "bytes") {
            bytes = &v;
        } else if (name == "length") {
            length = &v;
        } else if (name == "data" || name == "value" || name == "fill" || name == "npy") {
            if (content)
                badRequest("a tensor takes only one of data, value, fill and npy; got " +
                           contentName + " and " + name);
            content = &v;
            contentName = name;
        } else {
            badRequest("unknown tensor field \"" + name +
                       "\" (a tensor has dtype, shape, and one of data, value, fill or npy; "
                       "strings may say bytes and length)");
        }
    }
    if (!content) badRequest("a tensor needs one of data, value, fill or npy");
    if (seed && contentName != "fill")
        badRequest("seed goes with fill \"random\", not with " + contentName);
    TensorSpec spec;
    spec.dtype = dtypeField ? std::optional(readDType(*dtypeField)) : std::nullopt;
    spec.shape = shapeField ? std::optional(readShape(*shapeField)) : std::nullopt;
    const std::optional<DType>& dtype = spec.dtype;
    const std::optional<Shape>& shape = spec.shape;

    if (contentName == "data" || contentName == "fill") {
        if (!dtype || !shape) badRequest(contentName + " needs dtype and shape");
        limits.check(*shape, *dtype, "the tensor");
    }
    if (contentName == "fill") {
        if (bytes) badRequest("bytes goes with data or value, not with fill");
        if (length) badRequest("length goes with data or value, not with fill");
        spec.kind = TensorSpec::Kind::Fill;
        spec.fill = readFill(*content);
        if (seed && spec.fill != Fill::Random)
            badRequest("seed goes with fill \"random\", not \"" + content->toString() +
                       "\": " + content->toString() + " has nothing to seed; remove the seed");
        spec.seed = seed ? readSeed(*seed) : 0;
        return spec;
    }
    if (contentName == "data") {
        if (!content->isArray())
            badRequest("data must be a flat list of elements, got " +
                       std::string(content->typeName()));
        const auto& items = content->toArray();
        const std::int64_t n = numElements(*shape);
        if (std::int64_t(items.size()) != n)
            badRequest("data has " + num(std::int64_t(items.size())) + " elements but shape " +
                       shapeString(*shape) + " has " + num(n));
        spec.tensor = Tensor::empty(*dtype, *shape, limits);
        readElements(
            spec.tensor, [&](std::int64_t i) -> const Json& { return items[std::size_t(i)]; },
            [&](std::int64_t i) { return "data[" + num(i) + "]"; });
        readBytesKind(bytes, spec.tensor);
        readItemLength(length, spec.tensor);
        return spec;
    }
    if (contentName == "value") {
        spec.kind = TensorSpec::Kind::Value;
        spec.value = *content;
        spec.tensor = tensorFromValue(*content, dtype, limits);
        readBytesKind(bytes, spec.tensor);
        readItemLength(length, spec.tensor);
    } else {
        if (bytes)
            badRequest("bytes goes with data or value: an npy file says what its strings are");
        if (length)
            badRequest("length goes with data or value: an npy file says how long its strings are");
        spec.kind = TensorSpec::Kind::Npy;
        if (!content->isString())
            badRequest("npy must be a file path, got " + std::string(content->typeName()));
        spec.tensor = readNpyFile(content->toString(), limits);
        if (dtype && *dtype != spec.tensor.dtype())
            badRequest("dtype is " + std::string(dtypeName(*dtype)) + " but " +
                       content->toString() + " holds " +
                       std::string(dtypeName(spec.tensor.dtype())));
    }
    if (shape && *shape != spec.tensor.shape())
        badRequest("shape " + shapeString(*shape) + " does not match the " + contentName +
                   "'s shape " + shapeString(spec.tensor.shape()));
    return spec;
}

Tensor makeTensor(const TensorSpec& spec, const Limits& limits)
{
    if (spec.kind != TensorSpec::Kind::Fill) return spec.tensor;
    return makeFilled(*spec.dtype, *spec.shape, spec.fill, spec.seed, limits);
}

Tensor tensorFromJson(const Json& json, const Limits& limits)
{
    return makeTensor(tensorSpecFromJson(json, limits), limits);
}

void writeTensor(JsonWriter& writer, const Tensor& tensor)
{
    writer.beginObject();
    writer.key("dtype");
    writer.value(dtypeName(tensor.dtype()));
    writer.key("shape");
    writer.array(tensor.shape().data(), tensor.rank());
    const bool latin1 = holdsNonUtf8(tensor);
    if (tensor.holdsBytes()) {
        writer.key("bytes");
        if (latin1)
            writer.value(kLatin1);
        else
            writer.value(true);
    }
    if (tensor.itemLength() >= 0) {
        writer.key("length");
        writer.value(tensor.itemLength());
    }
    writer.key("data");
    if (latin1) {
        const std::vector<std::string> strings = latin1Strings(tensor);
        writer.array(strings.data(), std::int64_t(strings.size()));
    } else {
        visitDType(tensor.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            writer.array(tensor.data<T>(), tensor.size());
        });
    }
    writer.endObject();
}

void writeTensorSummary(JsonWriter& writer, const Tensor& tensor, Executor* executor)
{
    writer.beginObject();
    writer.key("dtype");
    writer.value(dtypeName(tensor.dtype()));
    writer.key("shape");
    writer.array(tensor.shape().data(), tensor.rank());
    writer.key("size");
    writer.value(tensor.size());
    if (const auto sum = tensorChecksum(tensor, executor)) {
        writer.key("checksum");
        writer.value(checksumHex(*sum));
    }
    writer.endObject();
}

namespace {
// Elements from which a summary's checksum is split over the executor's workers.
constexpr std::int64_t kParallelChecksum = std::int64_t(1) << 20;
} // namespace

std::optional<std::uint64_t> tensorChecksum(const Tensor& tensor, Executor* executor)
{
    if (tensor.dtype() == DType::String) return std::nullopt;
    return visitDType(tensor.dtype(), [&](auto tag) -> std::uint64_t {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, std::string>) {
            return 0;
        } else {
            // The unsigned integer of the element's own width.
            using Bits = std::conditional_t<
                sizeof(T) == 1, std::uint8_t,
                std::conditional_t<
                    sizeof(T) == 2, std::uint16_t,
                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
            const T* data = tensor.data<T>();
            auto range = [data](std::int64_t begin, std::int64_t end) {
                std::uint64_t sum = 0;
                for (std::int64_t i = begin; i < end; ++i) {
                    Bits bits;
                    std::memcpy(&bits, &data[i], sizeof bits);
                    std::uint64_t element = bits;
                    if constexpr (sizeof(T) == 16) {
                        // complex128: its two 64-bit halves, the imaginary one times 2^32 + 1.
                        std::uint64_t imag;
                        std::memcpy(&imag, reinterpret_cast<const char*>(&data[i]) + 8,
                                    sizeof imag);
                        element += imag * ((std::uint64_t(1) << 32) + 1);
                    }
                    sum += element * (2 * std::uint64_t(i) + 1);
                }
                return sum;
            };
            if (!executor || tensor.size() < kParallelChecksum) return range(0, tensor.size());
            // A sum modulo 2^64: chunks add up in any order. About 1 ns an element on one
            // core: 60 ms of a 64M-element summary.
            std::atomic<std::uint64_t> sum{0};
            executor->parallelFor(
                tensor.size(), kParallelChecksum / 4,
                [&](std::int64_t begin, std::int64_t end) { sum.fetch_add(range(begin, end)); });
            return sum.load();
        }
    });
}

std::string checksumHex(std::uint64_t checksum)
{
    static const char* hex = "0123456789abcdef";
    std::string s(16, '0');
    for (int k = 15; k >= 0; --k, checksum >>= 4)
        s[std::size_t(k)] = hex[checksum & 15];
    return s;
}

} // namespace ss
